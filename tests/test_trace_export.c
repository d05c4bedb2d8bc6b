// SPDX-License-Identifier: MIT
/*
 * The trace for people (trace-export.h) on a fixture shaped like
 * pi-classic on CPU 1: low (FIFO 10) takes the lock at 1 ms, high
 * (FIFO 30) is released at 2 ms and asks for it at 2.1 ms, low is
 * boosted at once, a foreign fhog (FIFO 50) preempts it from 3 to 6 ms,
 * and high gets the lock at 7 ms.  On CPU 0 a fair task with a hostile
 * comm runs for 250 us.
 *
 * The Chrome file must parse back (json-c), name the CPUs, the tasks
 * and the scenario, carry microseconds from the trace's start exactly,
 * have no overlapping slices in any lane, and mark the request, the
 * boost, the acquisition and the round.  The worst wait's timeline must
 * have a lane per task and one for fhog (not for the task of CPU 0, which
 * the scenario does not use), fhog marked as interference, and the
 * moments where they were.
 */
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <invlab/report.h>
#include <invlab/time.h>
#include <invlab/trace-export.h>

#include "t_util.h"

#define MS IL_NSEC_PER_MSEC
#define US IL_NSEC_PER_USEC
#define T0 (1000 * MS)

enum { HIGH = 101, LOW = 102, MEDIUM = 103, FHOG = 500, KW = 700 };
#define KW_COMM "k\"w\\\xff"

static struct il_trace tr;

static int kp(int fifo)
{
	return 99 - fifo;
}

static void sw(int cpu, uint64_t ts, int prev, int pp, int next, int np)
{
	struct il_trace_rec r = {
		.ts = T0 + ts,
		.kind = IL_TR_SWITCH,
		.cpu = (uint16_t)cpu,
		.prev_pid = prev,
		.next_pid = next,
		.prev_prio = (int16_t)pp,
		.next_prio = (int16_t)np,
	};

	t_check_int(il_trace_add(&tr, &r), 0);
}

static void setprio(uint64_t ts, int pid, int from, int to)
{
	struct il_trace_rec r = {
		.ts = T0 + ts,
		.kind = IL_TR_PI_SETPRIO,
		.cpu = 1,
		.prev_pid = pid,
		.prev_prio = (int16_t)from,
		.next_prio = (int16_t)to,
	};

	t_check_int(il_trace_add(&tr, &r), 0);
}

static const struct il_wait_sample high_w[] = {
	{ .delay_ns = 5 * MS, .t_ns = T0 + 2 * MS, .t_req_ns = T0 + 2100 * US },
	{ .delay_ns = 200 * US, .t_ns = T0 + 8 * MS, .t_req_ns = T0 + 8 * MS },
	/* outside the trace: never drawn */
	{ .delay_ns = 50 * MS, .t_ns = T0 + 9 * MS, .t_req_ns = T0 + 9 * MS },
};
static const struct il_wait_sample low_w[] = {
	{ .delay_ns = 100 * US,
	  .t_ns = T0 + 900 * US,
	  .t_req_ns = T0 + 950 * US },
};
static const uint64_t round_start[] = { T0 + 2 * MS, T0 + 20 * MS };
static const uint64_t round_end[] = { T0 + 7500 * US, T0 + 21 * MS };

static struct il_export_task tasks[] = {
	{ "high", HIGH, 0, 1, "waiter", "M", high_w, 3 },
	{ "low", LOW, 0, 1, "holder", "M", low_w, 1 },
	{ "medium", MEDIUM, 0, 1, "lower", NULL, NULL, 0 },
};
static struct il_export_input in = {
	.trace = &tr,
	.title = "pi-classic inherit",
	.pid = 4242,
	.tasks = tasks,
	.ntasks = 3,
	.round_start = round_start,
	.round_end = round_end,
	.nrounds = 2,
};

static void build(void)
{
	tasks[0].kprio = kp(30);
	tasks[1].kprio = kp(10);
	tasks[2].kprio = kp(20);
	tr.t0_ns = T0;
	tr.t1_ns = T0 + 10 * MS;
	sw(1, 500 * US, 0, 120, LOW, kp(10));
	sw(0, 1000 * US, 0, 120, KW, 120);
	sw(0, 1250 * US, KW, 120, 0, 120);
	sw(1, 2000 * US, LOW, kp(10), HIGH, kp(30));
	setprio(2101 * US, LOW, kp(10), kp(30));
	sw(1, 2101500, HIGH, kp(30), LOW, kp(30));
	sw(1, 3000 * US, LOW, kp(30), FHOG, kp(50));
	sw(1, 6000 * US, FHOG, kp(50), LOW, kp(30));
	/* a second link, as in a chain (medium is not running) */
	setprio(4000 * US, MEDIUM, kp(20), kp(30));
	setprio(7000 * US, LOW, kp(30), kp(10));
	sw(1, 7000 * US, LOW, kp(10), HIGH, kp(30));
	sw(1, 7500 * US, HIGH, kp(30), 0, 120);
	il_trace_sort(&tr);
	t_check_int(il_trace_note_task(&tr, HIGH, "high", kp(30)), 0);
	t_check_int(il_trace_note_task(&tr, LOW, "low", kp(10)), 0);
	t_check_int(il_trace_note_task(&tr, FHOG, "fhog", kp(50)), 0);
	t_check_int(il_trace_note_task(&tr, KW, KW_COMM, 120), 0);
	snprintf(tr.how, sizeof(tr.how), "fixture");
}

static json_object *get(json_object *o, const char *k)
{
	json_object *v = NULL;

	return json_object_object_get_ex(o, k, &v) ? v : NULL;
}

static const char *sget(json_object *o, const char *k)
{
	json_object *v = get(o, k);

	return v ? json_object_get_string(v) : "";
}

static double dget(json_object *o, const char *k)
{
	json_object *v = get(o, k);

	return v ? json_object_get_double(v) : NAN;
}

static int iget(json_object *o, const char *k)
{
	json_object *v = get(o, k);

	return v ? json_object_get_int(v) : -1;
}

/* the first event with this ph, tid and name (NULL: any name) */
static json_object *find(json_object *ev, const char *ph, int tid,
			 const char *name, int nth)
{
	for (size_t i = 0; i < json_object_array_length(ev); i++) {
		json_object *e = json_object_array_get_idx(ev, i);

		if (!strcmp(sget(e, "ph"), ph) && iget(e, "tid") == tid &&
		    (!name || !strcmp(sget(e, "name"), name)) && !nth--)
			return e;
	}
	return NULL;
}

/* a thread_name metadata event's name for tid, or "" */
static const char *thread_name(json_object *ev, int tid)
{
	json_object *e = find(ev, "M", tid, "thread_name", 0);

	return e ? sget(get(e, "args"), "name") : "";
}

static int cmp_d(const void *a, const void *b)
{
	const double *x = a, *y = b;

	if (x[2] != y[2])
		return x[2] < y[2] ? -1 : 1;
	return x[0] < y[0] ? -1 : x[0] > y[0];
}

/* the X events of each lane in time order: none starts before the last
 * ends */
static void check_no_overlap(json_object *ev)
{
	size_t n = json_object_array_length(ev), bad = 0, nx = 0;
	double(*x)[3] = calloc(n, sizeof(*x));

	t_check(x != NULL);
	if (!x)
		return;
	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(ev, i);

		if (strcmp(sget(e, "ph"), "X"))
			continue;
		x[nx][0] = dget(e, "ts");
		x[nx][1] = dget(e, "dur");
		x[nx][2] = iget(e, "tid");
		t_check(x[nx][1] > 0);
		nx++;
	}
	qsort(x, nx, sizeof(*x), cmp_d);
	for (size_t i = 1; i < nx; i++)
		if (x[i][2] == x[i - 1][2] &&
		    x[i][0] < x[i - 1][0] + x[i - 1][1] - 1e-6)
			bad++;
	t_check_int(bad, 0);
	t_check(nx >= 10);
	free(x);
}

static void test_chrome(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	json_object *root, *ev, *e;
	int cpu1 = IL_EXPORT_CPU_PID + 2;
	double busy = 0;

	t_check(f != NULL);
	if (!f)
		return;
	t_check_int(il_trace_export_chrome(f, &in), 0);
	fclose(f);
	root = json_tokener_parse(buf);
	t_check(root != NULL);
	if (!root) {
		fprintf(stderr, "%s\n", buf);
		free(buf);
		return;
	}
	ev = get(root, "traceEvents");
	t_check(ev && json_object_is_type(ev, json_type_array));
	t_check_str(sget(root, "displayTimeUnit"), "ns");
	t_check(dget(get(root, "otherData"), "t0_ns") == (double)T0);
	if (!ev)
		goto out;

	/* names: the CPUs, the tasks with their class, the scenario */
	t_check_str(thread_name(ev, IL_EXPORT_CPU_PID + 1), "CPU 0");
	t_check_str(thread_name(ev, cpu1), "CPU 1");
	t_check_str(thread_name(ev, HIGH), "high (FIFO 30)");
	t_check_str(thread_name(ev, LOW), "low (FIFO 10)");
	t_check_str(thread_name(ev, IL_EXPORT_ROUNDS_TID), "rounds");
	e = find(ev, "M", 0, "process_name", 1);
	t_check(e &&
		!strcmp(sget(get(e, "args"), "name"), "pi-classic inherit") &&
		iget(e, "pid") == 4242);

	/* who ran on CPU 1, in us from t0, exactly */
	e = find(ev, "X", cpu1, "fhog", 0);
	t_check(e != NULL);
	if (e) {
		t_check(dget(e, "ts") == 3000.0);
		t_check(dget(e, "dur") == 3000.0);
		t_check_int(iget(get(e, "args"), "pid"), FHOG);
		t_check_str(sget(get(e, "args"), "class"), "FIFO 50");
		t_check_int(iget(e, "pid"), IL_EXPORT_CPU_PID);
		t_check_str(sget(e, "cat"), "foreign");
	}
	e = find(ev, "X", cpu1, "high", 0);
	t_check(e && dget(e, "ts") == 2000.0 && dget(e, "dur") == 101.5);
	/* the prev rule: low's first piece ends at the switch to high */
	e = find(ev, "X", cpu1, "low", 0);
	t_check(e && dget(e, "ts") == 500.0 && dget(e, "dur") == 1500.0);
	for (int k = 0; (e = find(ev, "X", cpu1, NULL, k)); k++)
		busy += dget(e, "dur");
	t_check(fabs(busy - 7000.0) < 1e-6); /* 0.5 to 7.5 ms, idle left out */
	/* a comm that is not JSON-safe comes back as it was (0xff as U+00FF) */
	t_check(find(ev, "X", IL_EXPORT_CPU_PID + 1, "k\"w\\\xc3\xbf", 0) !=
		NULL);

	/* low's own lane: where it ran */
	e = find(ev, "X", LOW, "running", 1);
	t_check(e && dget(e, "ts") == 2101.5 && dget(e, "dur") == 898.5 &&
		iget(get(e, "args"), "cpu") == 1);
	t_check(find(ev, "X", LOW, "running", 3) == NULL);

	/* request, boost, acquisition, the wait and the round */
	e = find(ev, "i", HIGH, "request M", 0);
	t_check(e && dget(e, "ts") == 2100.0 && !strcmp(sget(e, "s"), "t"));
	e = find(ev, "i", HIGH, "acquired M", 0);
	t_check(e && dget(e, "ts") == 7000.0);
	e = find(ev, "i", LOW, "boosted FIFO 10 -> FIFO 30", 0);
	t_check(e && dget(e, "ts") == 2101.0);
	t_check(find(ev, "i", LOW, "restored FIFO 30 -> FIFO 10", 0) != NULL);
	e = find(ev, "X", IL_EXPORT_ROUNDS_TID, "round 1", 0);
	t_check(e && dget(e, "ts") == 2000.0 && dget(e, "dur") == 5500.0);
	/* round 2 and the third wait are past the trace's end */
	t_check(find(ev, "X", IL_EXPORT_ROUNDS_TID, "round 2", 0) == NULL);
	e = find(ev, "X", IL_EXPORT_ROUNDS_TID + 1, "wait", 0);
	t_check(e && dget(e, "ts") == 2000.0 && dget(e, "dur") == 5000.0);
	t_check(find(ev, "X", IL_EXPORT_ROUNDS_TID + 1, "wait", 1) != NULL);
	t_check(find(ev, "X", IL_EXPORT_ROUNDS_TID + 1, "wait", 2) == NULL);
	check_no_overlap(ev);
out:
	json_object_put(root);
	free(buf);
}

static void test_timeline(void)
{
	struct il_timeline tl;
	const struct il_tl_lane *fh = NULL;
	uint64_t t0;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	struct il_json j;
	json_object *o;

	t_check_int(il_timeline_worst(&in, 0, 2 * MS, 50 * US, &tl), 0);
	t_check_str(tl.waiter, "high");
	t_check_str(tl.resource, "M");
	t_check_int(tl.delay_ns, 5 * MS);
	t0 = tl.t0_ns;
	/* from low's acquisition less an eighth (and 20 us) of the span */
	t_check_int(t0, T0 + 1000 * US - 770 * US);
	t_check_int(tl.span_ns, 6 * MS + 2 * 770 * US);
	t_check_int(tl.release_ns + t0, T0 + 2 * MS);
	t_check_int(tl.request_ns + t0, T0 + 2100 * US);
	t_check_int(tl.acquired_ns + t0, T0 + 7 * MS);
	t_check_int(tl.locked_ns + t0, T0 + 1 * MS);
	t_check_str(tl.locker, "low");
	t_check_int(tl.boost_ns + t0, T0 + 2101 * US);
	t_check_str(tl.boosted, "low");
	t_check_int(tl.boost_from, kp(10));
	t_check_int(tl.boost_to, kp(30));
	/* each boosted task's first boost (restoring is not a boost) */
	t_check_int(tl.nboosts, 2);
	t_check_str(tl.boosts[0].task, "low");
	t_check_str(tl.boosts[1].task, "medium");
	t_check_int(tl.boosts[1].at_ns + t0, T0 + 4 * MS);
	t_check_int(tl.boosts[1].to, kp(30));
	t_check_int(tl.bound_ns, 2 * MS);
	/* a lane per task, in order, then fhog; not the CPU 0 task */
	t_check_int(tl.nlanes, 4);
	t_check_str(tl.lanes[0].role, "waiter");
	t_check_str(tl.lanes[1].name, "low");
	t_check_str(tl.lanes[1].role, "holder");
	t_check_str(tl.lanes[2].role, "lower");
	for (size_t i = 0; i < tl.nlanes; i++)
		if (!strcmp(tl.lanes[i].name, "fhog"))
			fh = &tl.lanes[i];
	t_check(fh != NULL);
	if (fh) {
		t_check_str(fh->role, "foreign");
		t_check_int(fh->higher, 1);
		t_check_int(fh->ran_ns, 3 * MS);
		t_check_int(fh->nslices, 1);
		t_check_int(fh->s[0].from_ns + t0, T0 + 3 * MS);
		t_check_int(fh->s[0].cpu, 1);
	}
	/* low: 0.5 to 2.0, 2.1015 to 3, 6 to 7 */
	t_check_int(tl.lanes[1].nslices, 3);
	t_check_int(tl.lanes[1].s[0].from_ns + t0, T0 + 500 * US);
	t_check_int(tl.lanes[1].ran_ns, 1500 * US + 898500 + 1 * MS);
	t_check_int(tl.lanes[2].nslices, 0); /* medium never ran */
	/* the window's last piece: idle after high's 7.5 ms switch */
	t_check_int(tl.lanes[0].ran_ns, 101500 + 500 * US);
	t_check_int(tl.others_ns, 0);

	/* a task without waits has no timeline */
	t_check_int(il_timeline_worst(&in, 2, 0, 0, &tl), -ENOENT);
	t_check_int(il_timeline_worst(&in, 9, 0, 0, &tl), -EINVAL);

	/* and as JSON, which parses back */
	t_check_int(il_timeline_worst(&in, 0, 2 * MS, 50 * US, &tl), 0);
	f = open_memstream(&buf, &len);
	t_check(f != NULL);
	if (!f)
		return;
	il_json_init(&j, f);
	il_json_begin_object(&j, NULL);
	il_timeline_json(&j, "worst_wait", &tl);
	il_json_end_object(&j);
	fclose(f);
	o = json_tokener_parse(buf);
	t_check(o != NULL);
	if (o) {
		json_object *w = get(o, "worst_wait");
		json_object *l = get(w, "lanes");

		t_check_str(sget(w, "task"), "high");
		t_check_str(sget(w, "boosted"), "low");
		t_check(l && json_object_array_length(l) == 4);
		t_check_str(sget(json_object_array_get_idx(l, 3), "class"),
			    "FIFO 50");
		json_object_put(o);
	}
	free(buf);
}

/*
 * A foreign task that runs 10 us every 100 us through a 19 ms wait: 190
 * pieces, more than a lane keeps.  The closest are merged, and the time
 * run stays what it was (the picture must not show it busy).
 */
static void test_many_slices(void)
{
	struct il_trace t2 = { 0 };
	static const struct il_wait_sample w[] = {
		{ .delay_ns = 19 * MS,
		  .t_ns = T0 + 1 * MS,
		  .t_req_ns = T0 + 1 * MS },
	};
	struct il_export_task tk[] = {
		{ "high", HIGH, 69, 1, "waiter", "M", w, 1 },
	};
	struct il_export_input in2 = { .trace = &t2, .tasks = tk, .ntasks = 1 };
	struct il_timeline tl;
	const struct il_tl_lane *l;
	uint64_t ran = 0;
	bool dense = true;

	t2.t0_ns = T0;
	t2.t1_ns = T0 + 30 * MS;
	for (uint64_t at = 1 * MS; at < 20 * MS; at += 100 * US) {
		struct il_trace_rec on = { .ts = T0 + at,
					   .kind = IL_TR_SWITCH,
					   .cpu = 1,
					   .prev_pid = 0,
					   .next_pid = 800,
					   .prev_prio = 120,
					   .next_prio = 49 };
		struct il_trace_rec off = on;

		off.ts += 10 * US;
		off.prev_pid = 800;
		off.prev_prio = 49;
		off.next_pid = 0;
		off.next_prio = 120;
		t_check_int(il_trace_add(&t2, &on), 0);
		t_check_int(il_trace_add(&t2, &off), 0);
	}
	il_trace_sort(&t2);
	t_check_int(il_timeline_worst(&in2, 0, 0, 0, &tl), 0);
	t_check_int(tl.nlanes, 2);
	l = &tl.lanes[1];
	t_check_int(l->pid, 800);
	t_check_int(l->nslices, IL_TL_MAX_SLICES);
	t_check_int(l->merged, 190 - IL_TL_MAX_SLICES);
	t_check_int(l->ran_ns, 1900 * US);
	for (size_t i = 0; i < l->nslices; i++) {
		ran += l->s[i].ran_ns;
		dense &= l->s[i].ran_ns <= l->s[i].to_ns - l->s[i].from_ns;
		if (i)
			t_check(l->s[i].from_ns >= l->s[i - 1].to_ns);
	}
	t_check_int(ran, 1900 * US);
	t_check(dense);
	/* evenly: no merged slice holds more than twice another's pieces */
	for (size_t i = 0; i < l->nslices; i++)
		t_check(l->s[i].ran_ns <=
			2 * (1900 * US / IL_TL_MAX_SLICES) + 10 * US);
	/* the first piece is where it was */
	t_check_int(l->s[0].from_ns + tl.t0_ns, T0 + 1 * MS);
	il_trace_free(&t2);
}

static void test_names(void)
{
	char b[32];

	il_export_file_name(b, sizeof(b), "inherit");
	t_check_str(b, "inherit");
	il_export_file_name(b, sizeof(b), "../a b/c");
	t_check_str(b, ".._a_b_c");
	il_export_file_name(b, sizeof(b), "..");
	t_check_str(b, "run");
	il_export_file_name(b, sizeof(b), "");
	t_check_str(b, "run");
}

int main(void)
{
	build();
	test_chrome();
	test_timeline();
	test_many_slices();
	test_names();
	t_check_int(
		il_trace_export_chrome(stdout, &(struct il_export_input){ 0 }),
		-EINVAL);
	il_trace_free(&tr);
	return t_done("trace-export");
}
