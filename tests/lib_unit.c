// SPDX-License-Identifier: GPL-2.0
/* Unit tests of applets/core/lib.c: numbers, sysfs_root, kit_getopt. */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/kit.h"
#include "unit.h"

static bool ulong_is(const char *s, int base, unsigned long min,
		     unsigned long max, unsigned long want)
{
	unsigned long v;

	return !parse_ulong(s, base, min, max, &v) && v == want;
}

static bool ulong_refused(const char *s, int base, unsigned long min,
			  unsigned long max, int err)
{
	unsigned long v;

	errno = 0;
	return parse_ulong(s, base, min, max, &v) == -1 && errno == err;
}

static void test_parse_ulong(void)
{
	check("decimal", ulong_is("65535", 10, 0, 65535, 65535));
	check("decimal: leading 0 is not octal", ulong_is("010", 10, 0, 99, 10));
	check("decimal: 0x refused", ulong_refused("0x10", 10, 0, 99, EINVAL));
	check("base 0: 0x hex", ulong_is("0x10", 0, 0, 99, 16));
	check("base 0: leading-0 octal", ulong_is("010000", 0, 0, 65535, 4096));
	check("base 0: 0", ulong_is("0", 0, 0, 1, 0));
	check("base 0: 0x alone refused", ulong_refused("0x", 0, 0, 9, EINVAL));
	check("empty refused", ulong_refused("", 10, 0, 9, EINVAL));
	check("sign refused", ulong_refused("-1", 10, 0, ULONG_MAX, EINVAL) &&
	      ulong_refused("+1", 10, 0, 9, EINVAL));
	check("spaces refused", ulong_refused(" 1", 10, 0, 9, EINVAL) &&
	      ulong_refused("1 ", 10, 0, 9, EINVAL));
	check("junk refused", ulong_refused("12a", 10, 0, 999, EINVAL));
	check("above max: ERANGE", ulong_refused("65536", 10, 0, 65535, ERANGE));
	check("below min: ERANGE", ulong_refused("0", 10, 1, 9, ERANGE));
	check("overflow: ERANGE",
	      ulong_refused("99999999999999999999999", 10, 0, ULONG_MAX,
			    ERANGE));
	check("min and max are in range", ulong_is("1", 10, 1, 1, 1));
}

static void test_sysfs_root(void)
{
	unsetenv("KIT_SYSFS");
	check("sysfs_root: /sys by default", !strcmp(sysfs_root(), "/sys"));
	setenv("KIT_SYSFS", "", 1);
	check("sysfs_root: /sys for an empty KIT_SYSFS",
	      !strcmp(sysfs_root(), "/sys"));
	setenv("KIT_SYSFS", "/tmp/fake", 1);
	check("sysfs_root: KIT_SYSFS", !strcmp(sysfs_root(), "/tmp/fake"));
	unsetenv("KIT_SYSFS");
}

static const struct option longopts[] = {
	{ "all", no_argument, NULL, 'A' },
	{ "port", required_argument, NULL, 'P' },
	{ NULL, 0, NULL, 0 },
};

/* The options kit_getopt returns for argv, as a string; optind after. */
static const char *parse(char **argv, const char *shortopts, int *end)
{
	static char got[64];
	int argc = 0, opt, n = 0;

	while (argv[argc])
		argc++;
	optind = 0;
	while ((opt = kit_getopt(argc, argv, shortopts, longopts)) != -1)
		got[n++] = opt;
	got[n] = '\0';
	*end = optind;
	return got;
}

static void test_kit_getopt(void)
{
	char *permuted[] = { "t", "arg", "-4", "--port", "80", "-j", NULL };
	char *in_order[] = { "t", "-4", "arg", "-j", NULL };
	char *dashdash[] = { "t", "-j", "--", "-h", NULL };
	int end;

	check("options after an argument (permuted)",
	      !strcmp(parse(permuted, "46j", &end), "4Pj") && end == 5 &&
	      !strcmp(permuted[5], "arg"));
	check("'+': options stop at the first argument",
	      !strcmp(parse(in_order, "+46j", &end), "4") && end == 2);
	check("'--' ends the options; -h after it is an argument",
	      !strcmp(parse(dashdash, "46j", &end), "j") && end == 3 &&
	      !strcmp(dashdash[3], "-h"));
}

/*
 * Runs kit_getopt over argv (then opt_exclusive(group) if not NULL) in a
 * child; true when it exits with status and stderr is exactly message.
 */
static bool child_says(char **argv, const char *group, int status,
		       const char *message)
{
	char path[] = "/tmp/lib_unit.XXXXXX", err[256] = "";
	int fd = mkstemp(path), end, wstatus;
	ssize_t n;
	pid_t pid;

	if (fd < 0)
		return false;
	pid = fork();
	if (!pid) {
		dup2(fd, 2);
		struct kit_err e;

		parse(argv, "46jts:", &end);
		if (group && opt_exclusive(group, &e))
			die_err(&e);
		exit(100);
	}
	waitpid(pid, &wstatus, 0);
	n = pread(fd, err, sizeof(err) - 1, 0);
	close(fd);
	unlink(path);
	err[n > 0 ? n : 0] = '\0';
	if (strcmp(err, message) || !WIFEXITED(wstatus) ||
	    WEXITSTATUS(wstatus) != status)
		printf("    status %d, stderr: %s", WEXITSTATUS(wstatus), err);
	return !strcmp(err, message) && WIFEXITED(wstatus) &&
	       WEXITSTATUS(wstatus) == status;
}

/* kit_getopt over args (and opt_exclusive(group)): exit status, stderr. */
static const struct refusal {
	const char *name, *args[6], *group;
	int status;
	const char *message;
} refusals[] = {
	{ "unknown option in a group", { "-4x" }, NULL, 2,
	  "t: unknown option '-x'; see 't --help'\n" },
	{ "unknown option in a group after a long option",
	  { "--all", "-x4" }, NULL, 2,
	  "t: unknown option '-x'; see 't --help'\n" },
	{ "unknown long option, named without its value", { "--nosuch=1" },
	  NULL, 2, "t: unknown option '--nosuch'; see 't --help'\n" },
	{ "missing value", { "-4", "-s" }, NULL, 2,
	  "t: option '-s' needs a value; see 't --help'\n" },
	{ "missing value of a long option", { "--port" }, NULL, 2,
	  "t: option '--port' needs a value; see 't --help'\n" },
	{ "a value given to a long flag", { "--all=1" }, NULL, 2,
	  "t: option '--all' takes no value; see 't --help'\n" },
	{ "--help after an argument: exit 0", { "-4", "arg", "--help" },
	  NULL, 0, "" },
	{ "opt_exclusive: the first two given, as given",
	  { "-j", "-4", "--all", "-t" }, "tjA", 2,
	  "t: -j and --all exclude each other; give one of them\n" },
	{ "opt_exclusive: an option repeated is no conflict, another is",
	  { "-j", "-j", "-t" }, "tj", 2,
	  "t: -j and -t exclude each other; give one of them\n" },
	{ "opt_exclusive: one option of the group passes",
	  { "-j", "-j", "-4" }, "tj", 100, "" },
};

static void test_refusals(void)
{
	const struct refusal *r;
	char *argv[8];
	size_t i;

	applet_name = "t";
	for (r = refusals; r < refusals + sizeof(refusals) / sizeof(*r); r++) {
		argv[0] = "t";
		for (i = 0; r->args[i]; i++)
			argv[i + 1] = (char *)r->args[i];
		argv[i + 1] = NULL;
		check(r->name, child_says(argv, r->group, r->status,
					  r->message));
	}
}

/* json_string(), through json_quote(): escapes, and valid UTF-8 kept. */
static bool json_written(void (*print)(FILE *, const char *), const char *s,
			 const char *want)
{
	char buf[1024] = "";
	FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");

	print(f, s);
	fclose(f);
	return !strcmp(buf, want);
}

static bool json_is(const char *s, const char *want)
{
	return json_written(json_string, s, want);
}

/* kit_getopt_err() over argv until it ends, or returns 'h' or '?': its
 * last return. */
static int parse_err(char **argv, struct kit_err *e)
{
	int argc = 0, opt;

	while (argv[argc])
		argc++;
	optind = 0;
	do
		opt = kit_getopt_err(argc, argv, "46jts:", longopts, e);
	while (opt != -1 && opt != 'h' && opt != '?');
	return opt;
}

/* The forms that return their errors, for engines (sockopt.c). */
static void test_getopt_err(void)
{
	char *help[] = { "t", "-4", "--help", "-x", NULL };
	char *bad[] = { "t", "-4", "-x", NULL };
	char *twice[] = { "t", "--port", "1", "-4", "--port", "2", NULL };
	char *pair[] = { "t", "-t", "-4", "-j", NULL };
	struct kit_err e = { 0 };

	applet_name = "t";
	check("kit_getopt_err: --help is returned as 'h', nothing printed",
	      parse_err(help, &e) == 'h' && !e.msg[0]);
	check("kit_getopt_err: an unknown option is '?' and the message",
	      parse_err(bad, &e) == '?' && e.status == EXIT_USAGE &&
	      !strcmp(e.msg, "unknown option '-x'; see 't --help'"));
	check("opt_once: a value given twice is an error, once is not",
	      parse_err(twice, &e) == -1 && opt_once("P", &e) == -1 &&
	      e.status == EXIT_USAGE &&
	      !strcmp(e.msg, "--port given twice: it takes one value; give "
		      "it once") && !opt_once("4", &e));
	check("opt_exclusive: returns the first two given, as given",
	      parse_err(pair, &e) == -1 && opt_exclusive("jt", &e) == -1 &&
	      e.status == EXIT_USAGE &&
	      !strcmp(e.msg, "-t and -j exclude each other; give one of "
		      "them") && !opt_exclusive("4A", &e));
}

static char noted[64];

static void note_line(const char *line)
{
	snprintf(noted, sizeof(noted), "%s", line);
}

/* grow(): room for need, doubling; kit_note(): a line to a hook. */
static void test_grow_note(void)
{
	size_t cap = 0, cap_before;
	int *v = grow(NULL, &cap, 3, sizeof(int)), *w;

	check("grow: from nothing, room for need", v && cap == 3);
	w = grow(v, &cap, 2, sizeof(int));
	check("grow: no more asked, the same array", w == v && cap == 3);
	w = grow(v, &cap, 4, sizeof(int));
	check("grow: more, doubled", w && cap == 6);
	v = w;
	w = grow(v, &cap, 13, sizeof(int));
	check("grow: more than double: what is asked", w && cap == 13);
	v = w;
	cap_before = cap;
	/* (SIZE_MAX / 8 + 2) * 8 bytes wrap around to 8: a realloc() that
	 * would succeed, small. */
	check("grow: a size that overflows is refused, the array kept",
	      !grow(v, &cap, SIZE_MAX / 8 + 2, 8) && cap == cap_before);
	free(v);
	kit_note(note_line, "walk %d: %s", 2, "done");
	check("kit_note: the line formatted, to the hook",
	      !strcmp(noted, "walk 2: done"));
	kit_note(NULL, "nobody %s", "hears");
	check("kit_note: no hook, no call", !strcmp(noted, "walk 2: done"));
}

/* release_version(): Debian's real sublevel from uname's version. */
static void test_release_version(void)
{
	int v[3];

	check("release_version: X.Y alone is 2 numbers, X.Y.0",
	      release_version("6.5", NULL, v) == 2 && v[0] == 6 && v[1] == 5 &&
	      v[2] == 0);
	check("release_version: Debian's version names the sublevel",
	      release_version("6.1.0-9-amd64", "#1 SMP PREEMPT_DYNAMIC "
			      "Debian 6.1.76-1 (2024-02-01)", v) == 3 &&
	      v[0] == 6 && v[1] == 1 && v[2] == 76);
	check("release_version: a Debian version of another X.Y is not read",
	      release_version("6.1.0-9-amd64", "#1 SMP Debian 6.5.3-1", v) ==
	      3 && v[2] == 0);
	check("release_version: X.Y gets Debian's sublevel, else stays 2",
	      release_version("6.1", "#1 SMP Debian 6.1.76-1", v) == 3 &&
	      v[2] == 76 && release_version("6.1", "#1 SMP", v) == 2);
}

/* json_value(): a number as the kernel prints one, else a string. */
static void test_json_value(void)
{
	check("json_value: integers are numbers",
	      json_written(json_value, "0", "0") &&
	      json_written(json_value, "7", "7") &&
	      json_written(json_value, "-1", "-1") &&
	      json_written(json_value, "500", "500"));
	check("json_value: anything else is a string",
	      json_written(json_value, "x", "\"x\"") &&
	      json_written(json_value, "", "\"\"") &&
	      json_written(json_value, "-", "\"-\"") &&
	      json_written(json_value, "01", "\"01\"") &&
	      json_written(json_value, "-0x", "\"-0x\"") &&
	      json_written(json_value, "1a", "\"1a\"") &&
	      json_written(json_value, "abc\"", "\"abc\\\"\""));
}

static void test_json(void)
{
	char in[130], want[300];

	memset(in, 'a', sizeof(in) - 1);
	in[sizeof(in) - 1] = 0;
	in[0] = '\x01', in[63] = '"', in[64] = '\\', in[128] = '\x1f';
	sprintf(want, "\"\\u0001%.62s\\\"\\\\%.63s\\u001f\"", in + 1, in + 65);
	check("json: quote, backslash, control characters",
	      json_is(in, want));
	check("json: empty string", json_is("", "\"\""));
	check("json: 0x7f and valid UTF-8 of 2, 3 and 4 bytes as they are",
	      json_is("\x7f\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80",
		      "\"\x7f\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\""));
	check("json: a character cut at the end (comm's 15 bytes)",
	      json_is("ab\xe2\x82", "\"ab\\u00e2\\u0082\""));
	check("json: a cut character, then a whole one",
	      json_is("\xe2\x82\xe2\x82\xac", "\"\\u00e2\\u0082\xe2\x82\xac\""));
	check("json: stray continuation, 0xff, 0xc0, 0xf5",
	      json_is("\x80\xff\xc0\xaf\xf5", "\"\\u0080\\u00ff\\u00c0\\u00af\\u00f5\""));
	check("json: overlong, surrogate, past U+10FFFF",
	      json_is("\xe0\x80\xaf\xed\xa0\x80\xf4\x90\x80\x80",
		      "\"\\u00e0\\u0080\\u00af\\u00ed\\u00a0\\u0080"
		      "\\u00f4\\u0090\\u0080\\u0080\""));
	check("json: the last code points of each length",
	      json_is("\xdf\xbf\xef\xbf\xbf\xf4\x8f\xbf\xbf",
		      "\"\xdf\xbf\xef\xbf\xbf\xf4\x8f\xbf\xbf\""));
}

/* line through cmdline_next() as "<param>" or "<param>=<val>" each. */
static bool cmdline_is(const char *line, const char *want)
{
	char copy[256], got[512] = "", *p = copy, *param, *val;
	size_t len;

	snprintf(copy, sizeof(copy), "%s", line);
	while ((p = cmdline_next(p, &param, &val))) {
		len = strlen(got);
		snprintf(got + len, sizeof(got) - len, "<%s>%s%s%s", param,
			 val ? "=<" : "", val ? val : "", val ? ">" : "");
	}
	if (strcmp(got, want)) {
		/* JSON strings: the line's bytes (0xa0) printed as text */
		fputs("# cmdline ", stdout);
		json_string(stdout, line);
		fputs(": got ", stdout);
		json_string(stdout, got);
		fputs(", want ", stdout);
		json_string(stdout, want);
		putchar('\n');
	}
	return !strcmp(got, want);
}

/* The kernel's rules, lib/cmdline.c next_arg() and parse_args(): what,
 * the line, its parameters as cmdline_is() writes them. */
static const struct {
	const char *what, *line, *want;
} cmdline_cases[] = {
	{ "words, = splits param from value",
	  "  root=/dev/vda ro  quiet ", "<root>=</dev/vda><ro><quiet>" },
	{ "\\t \\n \\v \\f \\r and 0xa0 split words",
	  "a\tb\nc\vd\fe\rf\xa0g", "<a><b><c><d><e><f><g>" },
	{ "a quoted value loses its quotes, keeps its spaces",
	  "foo=\"bar kit.led=off\" x", "<foo>=<bar kit.led=off><x>" },
	{ "a quoted word loses its quotes",
	  "\"root=/dev/vda\" \"a b\"", "<root>=</dev/vda><a b>" },
	{ "quotes inside a value stay",
	  "root=/dev/\"vda\" init=/sbin/init\"",
	  "<root>=</dev/\"vda\"><init>=</sbin/init\">" },
	{ "an opening quote goes, the inner one stays",
	  "kit.shell=\"/bin/sh\"x",
	  "<kit.shell>=</bin/sh\"x>" },
	{ "quotes mid-value join words, and stay",
	  "root=a\"b c\"d", "<root>=<a\"b c\"d>" },
	{ "an unclosed quote runs to the end",
	  "a=\"b c d", "<a>=<b c d>" },
	{ "empty values",
	  "a= b=\"\" c", "<a>=<><b>=<><c>" },
	{ "an = first in the word does not split",
	  "=x=y", "<=x>=<y>" },
	{ "-- ends it; the words after are init's",
	  "quiet -- kit.led=off", "<quiet>" },
	{ "a quoted -- ends it too",
	  "a \"--\" b", "<a>" },
	{ "--=x is a parameter",
	  "--=x b", "<-->=<x><b>" },
	{ "a lone quote is an empty word",
	  "\"", "<>" },
	{ "nothing but spaces",
	  " \t ", "" },
};

static void test_cmdline(void)
{
	char name[128];
	size_t i;

	for (i = 0; i < sizeof(cmdline_cases) / sizeof(*cmdline_cases); i++) {
		snprintf(name, sizeof(name), "cmdline: %s",
			 cmdline_cases[i].what);
		check(name, cmdline_is(cmdline_cases[i].line,
				       cmdline_cases[i].want));
	}
}

int main(void)
{
	test_parse_ulong();
	test_sysfs_root();
	test_kit_getopt();
	test_refusals();
	test_getopt_err();
	test_grow_note();
	test_json();
	test_json_value();
	test_release_version();
	test_cmdline();
	return unit_status();
}
