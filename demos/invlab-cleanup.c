// SPDX-License-Identifier: MIT
/*
 * invlab-cleanup: undo what killed invlab runs left on the machine.
 *
 *   sudo invlab-cleanup            # repair, one line per dead run
 *   sudo invlab-cleanup --list     # show the state files, change nothing
 *
 * Every run records what it changes (cgroups, cpuset partitions,
 * cpuset.sched_load_balance, temporary directories and files) in
 * /run/invlab/<pid>.state before changing it, and every run starts by
 * undoing the records of dead processes (runstate.h).  This program does
 * the same on demand, e.g. after a run was killed with SIGKILL and before
 * anything else is measured on the machine.  Records of live runs are left
 * alone and named.
 *
 * Exit: 0 nothing left over, or all of it undone; 1 something could not
 * be undone (named); 2 bad usage; 77 not root.
 */
#include <dirent.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <invlab/opt.h>
#include <invlab/report.h>
#include <invlab/runstate.h>

#define PROG "invlab-cleanup"

struct cfg {
	int help;
	int version;
	int quiet;
	int list;
};

#define CFG(field) offsetof(struct cfg, field)

static const struct il_opt opts[] = {
	IL_OPT_HELP_ROW(CFG(help)),
	IL_OPT_VERSION_ROW(CFG(version)),
	{ .name = "quiet",
	  .short_name = 'q',
	  .type = IL_OPT_FLAG,
	  .offset = CFG(quiet),
	  .help = "print nothing when nothing was left over" },
	{ .name = "list",
	  .short_name = 'l',
	  .type = IL_OPT_FLAG,
	  .offset = CFG(list),
	  .help = "list the state files and whether their owners live; "
		  "change nothing" },
	{ .name = NULL },
};

static const struct il_opt *const tables[] = { opts, NULL };

static void line(const char *s)
{
	fprintf(stderr, PROG ": %s\n", s);
}

static int list(void)
{
	DIR *d = opendir(IL_RUNSTATE_DIR);
	struct dirent *de;
	int n = 0;

	if (!d) {
		printf("no state files (%s does not exist)\n", IL_RUNSTATE_DIR);
		return 0;
	}
	while ((de = readdir(d))) {
		char path[300], err[600], *text;
		struct il_runstate st;
		FILE *f;

		if (de->d_name[0] == '.' || !strstr(de->d_name, ".state"))
			continue;
		snprintf(path, sizeof(path), IL_RUNSTATE_DIR "/%s", de->d_name);
		f = fopen(path, "re");
		if (!f)
			continue;
		text = calloc(1, 1 << 16);
		if (text && !fread(text, 1, (1 << 16) - 1, f))
			text[0] = '\0';
		fclose(f);
		if (!text)
			continue;
		if (__il_runstate_parse(text, &st, err, sizeof(err))) {
			printf("%s: unreadable: %s\n", path, err);
		} else {
			printf("%s: PID %d (%s), %s, %d change%s\n", path,
			       st.pid, st.prog,
			       il_runstate_owner_alive(st.pid, st.start, 0)
				       ? "running"
				       : "dead: will be undone",
			       st.n, st.n == 1 ? "" : "s");
			for (int i = 0; i < st.n; i++)
				printf("  %s%s%s\n", st.rec[i].path,
				       st.rec[i].value[0] ? " " : "",
				       st.rec[i].value);
		}
		free(text);
		n++;
	}
	closedir(d);
	if (!n)
		printf("no state files in %s\n", IL_RUNSTATE_DIR);
	return 0;
}

int main(int argc, char **argv)
{
	struct cfg cfg;
	char err[1024], live[512];
	int ret;

	memset(&cfg, 0, sizeof(cfg));
	ret = il_opt_parse(argc, argv, tables, &cfg, err, sizeof(err));
	if (ret < 0) {
		fprintf(stderr, PROG ": %s\nTry '" PROG " --help'.\n", err);
		return 2;
	}
	if (cfg.help) {
		il_opt_help(stdout, PROG, "[OPTIONS]",
			    "Undo what killed invlab runs left on the machine: "
			    "cgroups and cpuset partitions, load balancing "
			    "turned off, temporary directories and files, as "
			    "recorded in " IL_RUNSTATE_DIR " (every run also "
			    "does this when it starts). Exit status: 0 "
			    "nothing left over or all of it undone, 1 "
			    "something could not be undone, 2 bad usage, 77 "
			    "not root.",
			    tables);
		return 0;
	}
	if (cfg.version) {
		printf(PROG " %s (%s)\n", il_version(), il_features());
		return 0;
	}
	if (ret < argc) {
		fprintf(stderr, PROG ": unexpected argument '%s'\n", argv[ret]);
		return 2;
	}
	if (cfg.list)
		return list();
	if (geteuid() != 0) {
		fprintf(stderr, PROG ": SKIP: needs root: the state files "
				     "in " IL_RUNSTATE_DIR
				     " and the cgroups are root's "
				     "(CAP_SYS_ADMIN)\n");
		return 77;
	}
	il_runstate_set_notice(line);
	ret = il_runstate_repair(err, sizeof(err));
	if (err[0])
		line(err);
	else if (!cfg.quiet)
		line("nothing left over by dead runs");
	if (il_runstate_live_owners(live, sizeof(live)) > 0 && !cfg.quiet)
		fprintf(stderr, PROG ": left alone, still running: %s\n", live);
	return ret < 0 ? 1 : 0;
}
