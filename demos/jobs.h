/* SPDX-License-Identifier: MIT */
/*
 * The job files of the demos' scenarios (demos/jobs/), built in by
 * embed-jobs.py so that a binary needs no source tree (static builds
 * pushed to devices).
 */
#ifndef INVLAB_DEMO_JOBS_H
#define INVLAB_DEMO_JOBS_H

struct demo_job {
	const char *scenario; /* "basic", "pi-classic", ... */
	const char *file;     /* "dl-basic.job", for messages */
	const char *text;
};

/* ended by an entry with scenario NULL */
extern const struct demo_job demo_jobs[];

/* The job of that scenario, or NULL. */
const struct demo_job *demo_job(const char *scenario);

#endif
