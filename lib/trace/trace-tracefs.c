// SPDX-License-Identifier: MIT
/*
 * The trace recorder on tracefs (trace.h), through libtracefs and
 * libtraceevent; compiled only when the build has them.
 *
 * Its own instance, instances/invlab-<pid>, on the "mono" clock, with
 * the scheduler's events and buffers sized for the run.  With no tracefs
 * mounted it mounts one of its own under IL_RUNSTATE_DIR, never shared.
 * The instance and that mount are recorded in the run state before they
 * are made (runstate.h), and removed by il_trace_close() or, after a
 * SIGKILL, by the next run.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>
#include <event-parse.h>

#include <invlab/runstate.h>
#include <invlab/time.h>
#include <invlab/trace.h>

#define MOUNT_POINT "/sys/kernel/tracing"
/* per-CPU buffer: about 1.5 MiB per second of run, within these */
#define BUF_KB_PER_S 1536u
#define BUF_KB_MIN   2048u
#define BUF_KB_MAX   65536u

static const char *const events[] = {
	"sched_switch",	      "sched_waking",	  "sched_wakeup",
	"sched_migrate_task", "sched_pi_setprio", "sched_stat_runtime",
};
/* the last of events[]: only with il_trace_scope.runtime, filtered */
#define EV_RUNTIME (sizeof(events) / sizeof(events[0]) - 1)

struct il_tracer {
	struct tracefs_instance *inst;
	char name[32];
	char dir[260];	     /* the tracefs mount in use */
	char inst_path[320]; /* its instance directory */
	bool mounted;	     /* this recorder mounted dir */
	int nevents;
	int cpus;     /* CPUs in tracing_cpumask (0: every CPU) */
	int filtered; /* events filtered to the scenario's threads */
	bool runtime; /* sched_stat_runtime recorded */
	size_t kb;
	uint64_t t0, t1;
	uint64_t setup_cpu_ns;
};

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * IL_NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

/* where tracefs is mounted, from /proc/self/mounts: 0 or -ENOENT */
static int find_mount(char *dir, size_t len)
{
	char line[1024], dev[256], mnt[256], type[64];
	FILE *f = fopen("/proc/self/mounts", "re");
	int ret = -ENOENT;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f))
		/* not another run's own mount: it goes when that run ends */
		if (sscanf(line, "%255s %255s %63s", dev, mnt, type) == 3 &&
		    !strcmp(type, "tracefs") &&
		    strncmp(mnt, IL_RUNSTATE_DIR "/", 12)) {
			snprintf(dir, len, "%s", mnt);
			ret = 0;
			/* the canonical place if it is one of several */
			if (!strcmp(mnt, MOUNT_POINT))
				break;
		}
	fclose(f);
	return ret;
}

int il_trace_available(char *why, size_t len)
{
	struct stat st;
	char dir[256];

	if (geteuid() != 0) {
		snprintf(why, len, "tracing needs root (CAP_SYS_ADMIN)");
		return 0;
	}
	if (!find_mount(dir, sizeof(dir)))
		return 1;
	if (stat(MOUNT_POINT, &st) || !S_ISDIR(st.st_mode)) {
		snprintf(why, len,
			 "no tracefs: the kernel has no " MOUNT_POINT
			 " (CONFIG_FTRACE)");
		return 0;
	}
	return 1;
}

static void undo_mount(struct il_tracer *tr)
{
	if (!tr->mounted)
		return;
	tracefs_set_tracing_dir(NULL);
	/* busy (a file of it still open): left for the next run's repair */
	if ((!umount2(tr->dir, 0) || errno == EINVAL || errno == ENOENT) &&
	    (!rmdir(tr->dir) || errno == ENOENT))
		il_runstate_forget(IL_RS_MOUNT, tr->dir);
	tr->mounted = false;
}

/*
 * No tracefs mounted: one of the run's own, at IL_RUNSTATE_DIR/tracefs-PID,
 * that no other run uses.  (A mount at the usual place would be shared:
 * another run would take it, and lose its trace and its instance when this
 * run takes the mount away.)
 */
static int open_mount(struct il_tracer *tr, char *why, size_t len)
{
	struct stat st;
	int ret;

	if (!find_mount(tr->dir, sizeof(tr->dir)))
		return 0;
	ret = __il_runstate_dir();
	snprintf(tr->dir, sizeof(tr->dir), IL_RUNSTATE_DIR "/tracefs-%d",
		 (int)getpid());
	if (!ret)
		ret = il_runstate_record(IL_RS_MOUNT, tr->dir, NULL);
	if (ret) {
		snprintf(why, len,
			 "tracing: cannot record the tracefs mount in the "
			 "run state: %s",
			 strerror(-ret));
		return ret;
	}
	if ((mkdir(tr->dir, 0700) && errno != EEXIST) || lstat(tr->dir, &st) ||
	    !S_ISDIR(st.st_mode) ||
	    mount("tracefs", tr->dir, "tracefs", 0, NULL)) {
		ret = -errno;
		rmdir(tr->dir);
		il_runstate_forget(IL_RS_MOUNT, tr->dir);
		snprintf(why, len, "tracing: cannot mount tracefs on %s: %s",
			 tr->dir, strerror(-ret));
		return ret;
	}
	tr->mounted = true;
	return 0;
}

void il_trace_close(struct il_tracer *tr)
{
	if (!tr)
		return;
	if (tr->inst) {
		tracefs_trace_off(tr->inst);
		if (!tracefs_instance_destroy(tr->inst) ||
		    access(tr->inst_path, F_OK))
			il_runstate_forget(IL_RS_TRACEFS, tr->inst_path);
		tracefs_instance_free(tr->inst);
		tr->inst = NULL;
	}
	undo_mount(tr);
	free(tr);
}

/* tracing_cpumask: 32-bit hex words, most significant first, by commas */
static void set_cpumask(struct il_tracer *tr, const struct il_trace_scope *sc)
{
	uint32_t words[32] = { 0 };
	char buf[32 * 9 + 1];
	int top = 0;
	size_t off = 0;

	for (int i = 0; i < sc->ncpus; i++) {
		if (sc->cpus[i] < 0 || sc->cpus[i] >= 32 * 32)
			return; /* beyond the mask: every CPU */
		words[sc->cpus[i] / 32] |= 1u << (sc->cpus[i] % 32);
		if (sc->cpus[i] / 32 > top)
			top = sc->cpus[i] / 32;
	}
	for (int w = top; w >= 0; w--)
		off += (size_t)snprintf(buf + off, sizeof(buf) - off, "%s%x",
					w == top ? "" : ",", words[w]);
	if (tracefs_instance_file_write(tr->inst, "tracing_cpumask", buf) > 0)
		tr->cpus = sc->ncpus;
}

/* "pid==1||pid==2": the threads whose wakeups and migrations count */
static void set_pid_filter(struct il_tracer *tr,
			   const struct il_trace_scope *sc)
{
	static const char *const filtered[] = { "sched_waking", "sched_wakeup",
						"sched_migrate_task",
						"sched_stat_runtime" };
	char buf[4096];
	size_t off = 0;

	for (int i = 0; i < sc->npids && off < sizeof(buf); i++)
		off += (size_t)snprintf(buf + off, sizeof(buf) - off,
					"%spid==%d", i ? "||" : "",
					sc->pids[i]);
	if (off >= sizeof(buf))
		return;
	for (size_t i = 0; i < sizeof(filtered) / sizeof(filtered[0]); i++)
		if (tracefs_event_file_write(tr->inst, "sched", filtered[i],
					     "filter", buf) > 0)
			tr->filtered++;
}

int il_trace_start(uint64_t duration_ns, struct il_tracer **out, char *why,
		   size_t len)
{
	return il_trace_start_scope(duration_ns, NULL, out, why, len);
}

int il_trace_start_scope(uint64_t duration_ns,
			 const struct il_trace_scope *scope,
			 struct il_tracer **out, char *why, size_t len)
{
	struct il_tracer *tr;
	uint64_t kb, cpu0 = thread_cpu_ns();
	int ret;

	*out = NULL;
	if (!il_trace_available(why, len))
		return -EPERM;
	tr = calloc(1, sizeof(*tr));
	if (!tr)
		return -ENOMEM;
	ret = open_mount(tr, why, len);
	if (ret) {
		free(tr);
		return ret;
	}
	if (tracefs_set_tracing_dir(tr->dir)) {
		snprintf(why, len, "tracing: tracefs at %s unusable", tr->dir);
		ret = -ENOENT;
		goto fail;
	}
	/* what dead runs left here (their records lost with a mount) */
	__il_trace_reap_instances(tr->dir);
	snprintf(tr->name, sizeof(tr->name), "invlab-%d", (int)getpid());
	snprintf(tr->inst_path, sizeof(tr->inst_path), "%s/instances/%s",
		 tr->dir, tr->name);
	ret = il_runstate_record(IL_RS_TRACEFS, tr->inst_path, NULL);
	if (ret) {
		snprintf(why, len,
			 "tracing: cannot record the instance in the run "
			 "state: %s",
			 strerror(-ret));
		goto fail;
	}
	tr->inst = tracefs_instance_create(tr->name);
	if (!tr->inst) {
		ret = errno ? -errno : -EIO;
		il_runstate_forget(IL_RS_TRACEFS, tr->inst_path);
		snprintf(why, len, "tracing: cannot make instance %s: %s",
			 tr->inst_path, strerror(-ret));
		goto fail;
	}
	/* a new instance records at once: off until everything is set */
	tracefs_trace_off(tr->inst);
	if (tracefs_instance_file_write(tr->inst, "trace_clock", "mono") < 0) {
		ret = -EIO;
		snprintf(why, len, "tracing: no mono trace clock");
		goto fail;
	}
	kb = duration_ns / IL_NSEC_PER_SEC * BUF_KB_PER_S + BUF_KB_PER_S;
	kb = kb < BUF_KB_MIN ? BUF_KB_MIN : kb > BUF_KB_MAX ? BUF_KB_MAX : kb;
	tr->kb = (size_t)kb;
	if (tracefs_instance_set_buffer_size(tr->inst, tr->kb, -1) < 0) {
		ret = -ENOMEM;
		snprintf(why, len,
			 "tracing: cannot size the buffers (%zu KiB per CPU)",
			 tr->kb);
		goto fail;
	}
	if (scope && scope->ncpus > 0)
		set_cpumask(tr, scope);
	for (size_t i = 0; i < sizeof(events) / sizeof(events[0]); i++) {
		if (scope && scope->switches_only && i)
			continue;
		/* the run-time accounting of the scenario's threads only:
		 * unfiltered, every update of every task is one event */
		if (i == EV_RUNTIME &&
		    (!scope || !scope->runtime || scope->npids <= 0))
			continue;
		if (!tracefs_event_enable(tr->inst, "sched", events[i])) {
			tr->nevents++;
			tr->runtime |= i == EV_RUNTIME;
		}
	}
	if (scope && scope->npids > 0 && !scope->switches_only)
		set_pid_filter(tr, scope);
	/*
	 * Nothing to clear: the instance is new, off since it was made,
	 * and its buffers were reset by the clock and the size written
	 * above (truncating "trace" cost 20 to 30 ms a run here).
	 */
	if (tr->nevents == 0) {
		ret = -EIO;
		snprintf(why, len, "tracing: cannot enable the sched events");
		goto fail;
	}
	tr->t0 = il_now_ns();
	if (tracefs_trace_on(tr->inst)) {
		ret = -EIO;
		snprintf(why, len, "tracing: cannot switch it on");
		goto fail;
	}
	tr->setup_cpu_ns = thread_cpu_ns() - cpu0;
	*out = tr;
	return 0;
fail:
	il_trace_close(tr);
	return ret;
}

/* the fields of each event read, looked up by name once, not per record */
enum {
	F_PREV_STATE,
	F_PREV_PID,
	F_NEXT_PID,
	F_PREV_PRIO,
	F_NEXT_PRIO,
	F_PREV_COMM,
	F_NEXT_COMM,
	F_NSWITCH,
	F_PID = 0,
	F_PRIO,
	F_CPU,
	F_OLDPRIO,
	F_NEWPRIO,
	F_ORIG_CPU,
	F_RUNTIME,
	F_NOTHER,
};

struct reader {
	struct il_trace *t;
	int id_switch, id_pi, id_wakeup, id_migrate, id_runtime;
	struct tep_format_field *sw[F_NSWITCH], *pi[F_NOTHER], *wk[F_NOTHER],
		*mg[F_NOTHER], *rt[F_NOTHER];
	int err;
};

static long long fnum(struct tep_format_field *f, struct tep_record *r)
{
	unsigned long long v = 0;

	if (!f || tep_read_number_field(f, r->data, &v))
		return 0;
	/* sign-extend the narrow fields (prio is an int) */
	if (f->size == 4)
		return (long long)(int)(unsigned)v;
	return (long long)v;
}

static void comm(struct tep_format_field *f, struct tep_record *r, char *buf,
		 size_t len)
{
	size_t n;

	buf[0] = '\0';
	if (!f || f->offset < 0 || f->offset + f->size > r->size)
		return;
	n = (size_t)f->size < len - 1 ? (size_t)f->size : len - 1;
	memcpy(buf, (const char *)r->data + f->offset, n);
	buf[n] = '\0';
}

static int on_event(struct tep_event *ev, struct tep_record *r, int cpu,
		    void *arg)
{
	struct reader *rd = arg;
	struct il_trace_rec x = { .ts = r->ts, .cpu = (uint16_t)cpu };
	char c[16];

	if (r->missed_events > 0)
		rd->t->lost += (uint64_t)r->missed_events;
	if (ev->id == rd->id_switch) {
		long long st = fnum(rd->sw[F_PREV_STATE], r);

		x.kind = IL_TR_SWITCH;
		x.prev_pid = (int32_t)fnum(rd->sw[F_PREV_PID], r);
		x.next_pid = (int32_t)fnum(rd->sw[F_NEXT_PID], r);
		x.prev_prio = (int16_t)fnum(rd->sw[F_PREV_PRIO], r);
		x.next_prio = (int16_t)fnum(rd->sw[F_NEXT_PRIO], r);
		/* 0 (R) or the preempted mark above the report states */
		x.prev_runnable = (st & 0xff) == 0;
		comm(rd->sw[F_PREV_COMM], r, c, sizeof(c));
		if (il_trace_note_task(rd->t, x.prev_pid, c, x.prev_prio))
			rd->err = -ENOMEM;
		comm(rd->sw[F_NEXT_COMM], r, c, sizeof(c));
		if (il_trace_note_task(rd->t, x.next_pid, c, x.next_prio))
			rd->err = -ENOMEM;
	} else if (ev->id == rd->id_pi) {
		x.kind = IL_TR_PI_SETPRIO;
		x.prev_pid = (int32_t)fnum(rd->pi[F_PID], r);
		x.prev_prio = (int16_t)fnum(rd->pi[F_OLDPRIO], r);
		x.next_prio = (int16_t)fnum(rd->pi[F_NEWPRIO], r);
	} else if (ev->id == rd->id_wakeup) {
		int fl = tep_data_flags(ev->tep, r);

		x.kind = IL_TR_WAKEUP;
		x.prev_pid = (int32_t)fnum(rd->wk[F_PID], r);
		x.prev_prio = (int16_t)fnum(rd->wk[F_PRIO], r);
		x.cpu = (uint16_t)fnum(rd->wk[F_CPU], r);
		/* the flags are the waking CPU's: they speak of the target's
		 * reschedule only when the two are one */
		x.prev_runnable = x.cpu == (uint16_t)cpu && fl > 0 &&
				  (fl & TRACE_FLAG_NEED_RESCHED);
	} else if (ev->id == rd->id_migrate) {
		x.kind = IL_TR_MIGRATE;
		x.prev_pid = (int32_t)fnum(rd->mg[F_PID], r);
		x.prev_prio = (int16_t)fnum(rd->mg[F_PRIO], r);
		x.cpu = (uint16_t)fnum(rd->mg[F_CPU], r);
		x.next_pid = (int32_t)fnum(rd->mg[F_ORIG_CPU], r);
	} else if (ev->id == rd->id_runtime) {
		unsigned long long ns = 0;

		x.kind = IL_TR_RUNTIME;
		x.prev_pid = (int32_t)fnum(rd->rt[F_PID], r);
		if (!rd->rt[F_RUNTIME] ||
		    tep_read_number_field(rd->rt[F_RUNTIME], r->data, &ns) ||
		    ns > INT32_MAX)
			x.next_pid = -1; /* not known */
		else
			x.next_pid = (int32_t)ns;
	} else {
		return 0;
	}
	if (il_trace_add(rd->t, &x))
		rd->err = -ENOMEM;
	return rd->err ? 1 : 0;
}

/* the event's id (-1: none) and the fields named, NULL where absent */
static int event_id(struct tep_handle *tep, const char *name,
		    struct tep_format_field **f, const char *const *fields,
		    int n)
{
	struct tep_event *ev = tep_find_event_by_name(tep, "sched", name);

	for (int i = 0; i < n; i++)
		f[i] = ev && fields[i] ? tep_find_field(ev, fields[i]) : NULL;
	return ev ? ev->id : -1;
}

static const char *const sw_fields[F_NSWITCH] = {
	[F_PREV_STATE] = "prev_state", [F_PREV_PID] = "prev_pid",
	[F_NEXT_PID] = "next_pid",     [F_PREV_PRIO] = "prev_prio",
	[F_NEXT_PRIO] = "next_prio",   [F_PREV_COMM] = "prev_comm",
	[F_NEXT_COMM] = "next_comm",
};
static const char *const pi_fields[F_NOTHER] = {
	[F_PID] = "pid",
	[F_OLDPRIO] = "oldprio",
	[F_NEWPRIO] = "newprio",
};
static const char *const wk_fields[F_NOTHER] = {
	[F_PID] = "pid",
	[F_PRIO] = "prio",
	[F_CPU] = "target_cpu",
};
static const char *const mg_fields[F_NOTHER] = {
	[F_PID] = "pid",
	[F_PRIO] = "prio",
	[F_CPU] = "dest_cpu",
	[F_ORIG_CPU] = "orig_cpu",
};
static const char *const rt_fields[F_NOTHER] = {
	[F_PID] = "pid",
	[F_RUNTIME] = "runtime",
};

/*
 * The formats of the events read, and the buffers' page header: all
 * the parser needs.  tracefs_local_events_system() also loads the
 * kernel's symbols (/proc/kallsyms), some 100 ms of CPU on every read,
 * for names no field read here uses.
 */
static struct tep_handle *load_formats(void)
{
	struct tep_handle *tep = tep_alloc();
	char *buf;
	int size = 0, nev = 0;

	if (!tep)
		return NULL;
	buf = tracefs_instance_file_read(NULL, "events/header_page", &size);
	if (!buf || size <= 0 ||
	    tep_parse_header_page(tep, buf, (unsigned long)size,
				  (int)sizeof(long))) {
		free(buf);
		tep_free(tep);
		return NULL;
	}
	free(buf);
	for (size_t i = 0; i < sizeof(events) / sizeof(events[0]); i++) {
		buf = tracefs_event_file_read(NULL, "sched", events[i],
					      "format", &size);
		if (buf && size > 0 &&
		    !tep_parse_event(tep, buf, (size_t)size, "sched"))
			nev++;
		free(buf);
	}
	if (!nev) {
		tep_free(tep);
		return NULL;
	}
	tep_set_cpus(tep, (int)sysconf(_SC_NPROCESSORS_CONF));
	tep_set_long_size(tep, tep_get_header_page_size(tep));
	return tep;
}

int il_trace_stop(struct il_tracer *tr, struct il_trace *t, char *why,
		  size_t len)
{
	uint64_t cpu0;
	struct reader rd = { .t = t };
	struct tep_handle *tep;
	int ret = 0;

	memset(t, 0, sizeof(*t));
	if (!tr || !tr->inst)
		return -EINVAL;
	tracefs_trace_off(tr->inst);
	tr->t1 = il_now_ns();
	t->t0_ns = tr->t0;
	t->t1_ns = tr->t1;
	cpu0 = thread_cpu_ns();
	tep = load_formats();
	if (!tep) {
		snprintf(why, len, "tracing: cannot read the event formats");
		return -EIO;
	}
	rd.id_switch =
		event_id(tep, "sched_switch", rd.sw, sw_fields, F_NSWITCH);
	rd.id_pi =
		event_id(tep, "sched_pi_setprio", rd.pi, pi_fields, F_NOTHER);
	rd.id_wakeup =
		event_id(tep, "sched_wakeup", rd.wk, wk_fields, F_NOTHER);
	rd.id_migrate =
		event_id(tep, "sched_migrate_task", rd.mg, mg_fields, F_NOTHER);
	rd.id_runtime = tr->runtime ? event_id(tep, "sched_stat_runtime", rd.rt,
					       rt_fields, F_NOTHER)
				    : -1;
	if (tracefs_iterate_raw_events(tep, tr->inst, NULL, 0, on_event, &rd) <
		    0 &&
	    !rd.err)
		ret = -EIO;
	tep_free(tep);
	if (rd.err)
		ret = rd.err;
	if (ret)
		snprintf(why, len, "tracing: cannot read the buffers: %s",
			 strerror(-ret));
	il_trace_sort(t);
	/* the switches from idle some kernels leave out (trace.h) */
	if (!ret && tr->runtime) {
		ret = il_trace_fill_idle(t);
		if (ret)
			snprintf(why, len, "tracing: %s", strerror(-ret));
	}
	t->read_cpu_ns = thread_cpu_ns() - cpu0;
	t->setup_cpu_ns = tr->setup_cpu_ns;
	snprintf(t->how, sizeof(t->how),
		 "tracefs instance %s%s, %zu KiB per CPU, %d events%s%s",
		 tr->name, tr->mounted ? " (tracefs mounted for the run)" : "",
		 tr->kb, tr->nevents,
		 tr->cpus ? ", the scenario's CPUs only" : "",
		 tr->filtered ? tr->runtime ? ", wakeups and run time of its "
					      "threads only"
					    : ", wakeups of its threads only"
			      : "");
	return ret;
}
