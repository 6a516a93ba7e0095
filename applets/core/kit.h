/* SPDX-License-Identifier: GPL-2.0 */
/* kit: what every applet shares. */
#ifndef KIT_H
#define KIT_H

#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/* Exit codes, the same for every applet. */
#define EXIT_RUNTIME	1	/* the kernel, a file or the input said no */
#define EXIT_USAGE	2	/* the command line is wrong */
#define EXIT_NOAPPLET	127	/* no such applet, as a shell says */

/*
 * An engine's error: engines return -1 with it filled, the applet dies
 * with its status and message (die_err()).
 */
struct kit_err {
	int status;		/* EXIT_USAGE or EXIT_RUNTIME */
	char msg[PATH_MAX + 256];	/* one line, without the applet's name */
};
/* *e set to status and the message, ": strerror(errnum)" appended
 * unless errnum is 0; returns -1. */
int kit_fail(struct kit_err *e, int status, int errnum, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

struct applet {
	const char *name;
	const char *summary;	/* one line, for kit --help */
	const char *usage;	/* whole text, for APPLET --help */
	int (*main)(int argc, char **argv);
};

/*
 * KIT_APPLET(name, summary, usage) registers an applet from its own file:
 * the linker gathers every entry into the section kit_applets, so the
 * applet list is written nowhere else.  The applet defines name_main().
 */
#define KIT_APPLET(NAME, SUMMARY, USAGE)				\
	int NAME##_main(int argc, char **argv);				\
	static const struct applet NAME##_applet			\
	__attribute__((used, section("kit_applets"),			\
		       aligned(sizeof(void *)))) =			\
		{ #NAME, SUMMARY, USAGE, NAME##_main }

/* The running applet's name; every message starts with it. */
extern const char *applet_name;
/* The running applet's usage text, for -h and --help (set by the core). */
extern const char *applet_usage;

void warn_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* warn_msg() of a line: the note hook an applet hands an engine. */
void warn_line(const char *line);
/* The line fmt makes, to an engine's note hook (when not NULL). */
void kit_note(void (*note)(const char *line), const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void die(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));
/* die() with ": strerror(errno)" appended; errno is read first. */
void die_errno(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));
void die_usage(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));
/* An engine's error said, exit with its status. */
void die_err(const struct kit_err *e) __attribute__((noreturn));
/* An engine's answer to -h or --help: the applet's usage is wanted. */
#define KIT_HELP	(-2)
/*
 * An applet's end from what its engine returned: an exit status (0 or
 * more) as it is; KIT_HELP, the usage and exit 0 (help_exit()); -1, *e
 * said and its status (die_err()).
 */
int kit_result(int status, const struct kit_err *e);

/*
 * Memory.  The x* functions die with "APPLET: out of memory" (exit 1)
 * where malloc() fails: for what cannot go on without it.  grow() leaves
 * the choice to its caller, as an engine that undoes its work needs.
 */
void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/*
 * v, an array of *cap elements of size bytes, with room for need: its
 * capacity doubled, or need if that is more.  NULL out of memory (v and
 * *cap as they were).
 */
void *grow(void *v, size_t *cap, size_t need, size_t size);

/* usage, then the exit-status line every applet shares, on stdout. */
void print_usage(const char *usage);
/* -h and --help: the running applet's usage, exit 0. */
void help_exit(void) __attribute__((noreturn));

/*
 * check_stdout: called once by the core before the applet runs.  Every
 * write through stdout, and its close, is then checked once for every
 * applet, at a return from main and at exit() (not after die()):
 * "APPLET: write error: No space left on device", exit 1.  Output written
 * with write(1, ...) bypasses it: check those writes.  stdout is then a
 * stream of its own (fopencookie): fileno(stdout) is -1, use STDOUT_FILENO.
 */
void check_stdout(void);

/*
 * kit_getopt: getopt_long() for every applet, called the same way (optarg
 * and optind as usual; longopts may be NULL).  Options are permuted
 * unless shortopts starts with '+'.  Handled here, never returned:
 *  - -h and --help, anywhere before "--": the applet's usage, exit 0;
 *  - an unknown option or a missing value: exit 2 with
 *    "APPLET: unknown option '-x'; see 'APPLET --help'" or
 *    "APPLET: option '-s' needs a value; see 'APPLET --help'".
 * So it returns only the applet's own options, or -1.  It also records
 * which options were seen, for opt_exclusive().  A new argv starts a new
 * record; to parse the same argv again, set optind = 0 first.
 */
int kit_getopt(int argc, char **argv, const char *shortopts,
	       const struct option *longopts);
/* kit_getopt() for code that returns its errors: 'h' for -h and --help,
 * '?' with *e (the message above, EXIT_USAGE) for a refused option. */
int kit_getopt_err(int argc, char **argv, const char *shortopts,
		   const struct option *longopts, struct kit_err *e);

/*
 * opt_exclusive: call after the kit_getopt() loop.  group holds the
 * values kit_getopt() returns for options that exclude each other, e.g.
 * "tjc"; a long-only option takes part through its val (a character
 * not in shortopts).  When two of them were given, -1 with *e
 * (EXIT_USAGE): "-t and -j exclude each other; give one of them" (the
 * first two given, as given).  Repeating one option is not a conflict.
 */
int opt_exclusive(const char *group, struct kit_err *e);
/*
 * opt_once: call after the kit_getopt() loop.  group holds the values of
 * options that take one value (a port, a namespace): one given twice is
 * -1 with *e (EXIT_USAGE), "--sport given twice: it takes one value;
 * give it once", rather than the last silently winning.
 */
int opt_once(const char *group, struct kit_err *e);

/*
 * parse_ulong: the whole string as a number in [min, max], no sign, no
 * spaces.  The rule for bases (README, "Numbers"): base 10 for what a
 * user types that ss, ip or busybox take in decimal (ports, uids, prefix
 * lengths, percentages, counts); base 0, the kernel's %i (0x hex,
 * leading-0 octal), only for values that mirror a kernel interface that
 * reads them so (sysfs values, rdload -s, initrd's boot parameters).
 * Returns 0, or -1 with errno EINVAL (not a number) or ERANGE (outside
 * [min, max]).
 */
int parse_ulong(const char *s, int base, unsigned long min,
		unsigned long max, unsigned long *value);

/* The sysfs root: $KIT_SYSFS when set and not empty (tests), else /sys. */
const char *sysfs_root(void);

/*
 * A kernel's version from uname's release and version (may be NULL):
 * Debian's release says X.Y.0-N-arch, its version ("... Debian 6.1.76-1
 * ...") names the real sublevel.  How many numbers were read; under 2:
 * unknown.
 */
int release_version(const char *release, const char *version, int v[3]);
/* The running kernel's: $KIT_OSRELEASE when set and not empty (tests;
 * as X.Y.Z), else uname's. */
int running_version(int v[3]);

/*
 * path opened for reading without waiting on it: open() of a FIFO would
 * block until a writer came (fifo_open()).  The caller checks what kind
 * of file it is; -1 with errno.
 */
int open_noblock(const char *path);
/*
 * 0 if fd, opened from path, is a regular file (*st its stat); else -1
 * with *e saying what it is instead, remedy after it.  Every input that
 * must be a file's bytes goes through here.
 */
struct stat;
int regular_file(int fd, const char *path, const char *remedy,
		 struct stat *st, struct kit_err *e);
/* open_noblock() and regular_file(): the fd, or -1 with *e. */
int open_regular(const char *path, const char *remedy, struct stat *st,
		 struct kit_err *e);

/* Read a small file whole, NUL-terminated; strips one trailing newline.
 * Returns its length or -1 with errno set. */
ssize_t read_text(const char *path, char *buf, size_t size);
/* read_text() of an open file, which stays open. */
ssize_t read_fd_text(int fd, char *buf, size_t size);

/*
 * The kernel command line's next parameter, as parse_args() takes it
 * (kernel/params.c, next_arg() of lib/cmdline.c): words split at the
 * kernel's isspace() outside quotes; *param up to the first '=', *val
 * after it (NULL without one); a quote opening the word or the value is
 * taken off with the one that ends the word, any other quote stays.
 * args is cut in place.  Returns where the rest starts, or NULL at the
 * end and at "--" (the words after it are init's).
 */
char *cmdline_next(char *args, char **param, char **val);

/*
 * "APPLET: prompt and press ENTER" on stderr, then waits for ENTER on the
 * terminal, or on stdin without one: 0, or -1 with errno (0: the input
 * ended).
 */
int ask_enter(const char *prompt);

/* argv0 names /init, as the kernel runs PID 1 of an initramfs: kit is
 * the initrd applet's boot there (kernel_init(), init/main.c). */
bool invoked_as_init(const char *argv0);

/* line and a newline on stdout, flushed: it shows before what follows
 * on stderr or the console (a prompt, a failure). */
void put_line(const char *line);

/* write() until done; -1 with errno on error. */
ssize_t write_all(int fd, const void *buf, size_t len);

/*
 * s[0..len) written at p as a JSON string literal: '"', s escaped, '"'
 * (JSON_QUOTED_MAX(len) bytes at most, no NUL); returns the byte after
 * it.  JSON strings that kit prints go through here.  It is valid
 * UTF-8 whatever s holds (a comm cut mid-character, a netns name of any
 * bytes): each byte that does not belong to a valid UTF-8 character
 * becomes \u00XX, the byte's value as a code point (README, "JSON").
 */
#define JSON_QUOTED_MAX(len)	(6 * (len) + 2)
char *json_quote(char *p, const char *s, size_t len);
/* json_quote() of the string s, to out */
void json_string(FILE *out, const char *s);
/* s as a JSON number when it is an integer as the kernel prints one
 * ("-1", "500"), else as a JSON string: valid JSON whatever s holds. */
void json_value(FILE *out, const char *s);

#endif
