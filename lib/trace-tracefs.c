// SPDX-License-Identifier: MIT
/*
 * The trace recorder on tracefs (trace.h), through libtracefs and
 * libtraceevent; compiled only when the build has them.
 *
 * Its own instance, instances/invlab-<pid>, on the "mono" clock, with
 * the scheduler's events and buffers sized for the run.  The instance and
 * a mount this recorder made are recorded in the run state before they
 * are made (runstate.h), and removed by il_trace_close() or, after a
 * SIGKILL, by the next run.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
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
	"sched_migrate_task", "sched_pi_setprio",
};

struct il_tracer {
	struct tracefs_instance *inst;
	char name[32];
	char dir[260];	     /* the tracefs mount in use */
	char inst_path[320]; /* its instance directory */
	bool mounted;	     /* this recorder mounted dir */
	int nevents;
	size_t kb;
	uint64_t t0, t1;
};

/* where tracefs is mounted, from /proc/self/mounts: 0 or -ENOENT */
static int find_mount(char *dir, size_t len)
{
	char line[1024], dev[256], mnt[256], type[64];
	FILE *f = fopen("/proc/self/mounts", "re");
	int ret = -ENOENT;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%255s %255s %63s", dev, mnt, type) == 3 &&
		    !strcmp(type, "tracefs")) {
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
	/* busy (someone else opened it meanwhile): left mounted, harmless */
	if (!umount2(tr->dir, 0) || errno == EINVAL || errno == ENOENT)
		il_runstate_forget(IL_RS_MOUNT, tr->dir);
	tr->mounted = false;
}

static int open_mount(struct il_tracer *tr, char *why, size_t len)
{
	int ret;

	if (!find_mount(tr->dir, sizeof(tr->dir)))
		return 0;
	snprintf(tr->dir, sizeof(tr->dir), "%s", MOUNT_POINT);
	ret = il_runstate_record(IL_RS_MOUNT, tr->dir, NULL);
	if (ret) {
		snprintf(why, len,
			 "tracing: cannot record the tracefs mount in the "
			 "run state: %s",
			 strerror(-ret));
		return ret;
	}
	if (mount("tracefs", tr->dir, "tracefs", 0, NULL)) {
		ret = -errno;
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

int il_trace_start(uint64_t duration_ns, struct il_tracer **out, char *why,
		   size_t len)
{
	struct il_tracer *tr;
	uint64_t kb;
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
	for (size_t i = 0; i < sizeof(events) / sizeof(events[0]); i++)
		if (!tracefs_event_enable(tr->inst, "sched", events[i]))
			tr->nevents++;
	if (tracefs_instance_file_write(tr->inst, "trace", "") < 0 ||
	    tr->nevents == 0) {
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
	*out = tr;
	return 0;
fail:
	il_trace_close(tr);
	return ret;
}

struct reader {
	struct il_trace *t;
	int id_switch, id_pi, id_wakeup, id_migrate;
	int err;
};

static long long num(struct tep_event *ev, struct tep_record *r,
		     const char *name)
{
	struct tep_format_field *f = tep_find_field(ev, name);
	unsigned long long v = 0;

	if (!f || tep_read_number_field(f, r->data, &v))
		return 0;
	/* sign-extend the narrow fields (prio is an int) */
	if (f->size == 4)
		return (long long)(int)(unsigned)v;
	return (long long)v;
}

static void comm(struct tep_event *ev, struct tep_record *r, const char *name,
		 char *buf, size_t len)
{
	struct tep_format_field *f = tep_find_field(ev, name);
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
		long long st = num(ev, r, "prev_state");

		x.kind = IL_TR_SWITCH;
		x.prev_pid = (int32_t)num(ev, r, "prev_pid");
		x.next_pid = (int32_t)num(ev, r, "next_pid");
		x.prev_prio = (int16_t)num(ev, r, "prev_prio");
		x.next_prio = (int16_t)num(ev, r, "next_prio");
		/* 0 (R) or the preempted mark above the report states */
		x.prev_runnable = (st & 0xff) == 0;
		comm(ev, r, "prev_comm", c, sizeof(c));
		if (il_trace_note_task(rd->t, x.prev_pid, c, x.prev_prio))
			rd->err = -ENOMEM;
		comm(ev, r, "next_comm", c, sizeof(c));
		if (il_trace_note_task(rd->t, x.next_pid, c, x.next_prio))
			rd->err = -ENOMEM;
	} else if (ev->id == rd->id_pi) {
		x.kind = IL_TR_PI_SETPRIO;
		x.prev_pid = (int32_t)num(ev, r, "pid");
		x.prev_prio = (int16_t)num(ev, r, "oldprio");
		x.next_prio = (int16_t)num(ev, r, "newprio");
	} else if (ev->id == rd->id_wakeup) {
		x.kind = IL_TR_WAKEUP;
		x.prev_pid = (int32_t)num(ev, r, "pid");
		x.prev_prio = (int16_t)num(ev, r, "prio");
		x.cpu = (uint16_t)num(ev, r, "target_cpu");
	} else if (ev->id == rd->id_migrate) {
		x.kind = IL_TR_MIGRATE;
		x.prev_pid = (int32_t)num(ev, r, "pid");
		x.prev_prio = (int16_t)num(ev, r, "prio");
		x.cpu = (uint16_t)num(ev, r, "dest_cpu");
	} else {
		return 0;
	}
	if (il_trace_add(rd->t, &x))
		rd->err = -ENOMEM;
	return rd->err ? 1 : 0;
}

static int event_id(struct tep_handle *tep, const char *name)
{
	struct tep_event *ev = tep_find_event_by_name(tep, "sched", name);

	return ev ? ev->id : -1;
}

int il_trace_stop(struct il_tracer *tr, struct il_trace *t, char *why,
		  size_t len)
{
	const char *systems[] = { "sched", NULL };
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
	tep = tracefs_local_events_system(tr->dir, systems);
	if (!tep) {
		snprintf(why, len, "tracing: cannot read the event formats");
		return -EIO;
	}
	rd.id_switch = event_id(tep, "sched_switch");
	rd.id_pi = event_id(tep, "sched_pi_setprio");
	rd.id_wakeup = event_id(tep, "sched_wakeup");
	rd.id_migrate = event_id(tep, "sched_migrate_task");
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
	snprintf(t->how, sizeof(t->how),
		 "tracefs instance %s%s, %zu KiB per CPU, %d events", tr->name,
		 tr->mounted ? " (tracefs mounted for the run)" : "", tr->kb,
		 tr->nevents);
	return ret;
}
