/* SPDX-License-Identifier: MIT */
/* The job files of dl-mbwi's scenarios, built in (embed-jobs.py). */
#ifndef INVLAB_DL_JOBS_H
#define INVLAB_DL_JOBS_H

struct dl_job {
	const char *scenario; /* "basic", "chain", ... */
	const char *file;     /* "dl-basic.job", for messages */
	const char *text;
};

/* ended by an entry with scenario NULL */
extern const struct dl_job dl_jobs[];

#endif
