/* SPDX-License-Identifier: GPL-2.0 */
/* kit: what every applet shares. */
#ifndef KIT_H
#define KIT_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/* Exit codes, the same for every applet. */
#define EXIT_RUNTIME	1	/* the kernel, a file or the input said no */
#define EXIT_USAGE	2	/* the command line is wrong */
#define EXIT_NOAPPLET	127	/* no such applet, as a shell says */

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

void warn_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void die(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));
void die_usage(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));

/*
 * parse_long: the whole string as a C integer (decimal, 0x hex,
 * leading-0 octal, optional sign), as the kernel's %i reads it.
 * Returns 0, or -1 when s is empty, has trailing junk or overflows.
 */
int parse_long(const char *s, long *value);

/* Read a small file whole, NUL-terminated; strips one trailing newline.
 * Returns its length or -1 with errno set. */
ssize_t read_text(const char *path, char *buf, size_t size);

/* write() until done; -1 with errno on error. */
ssize_t write_all(int fd, const void *buf, size_t len);

/* A JSON string literal, quotes included. */
void json_string(FILE *out, const char *s);

#endif
