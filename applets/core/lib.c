// SPDX-License-Identifier: GPL-2.0
/* kit: the few helpers every applet uses. */
#define _GNU_SOURCE	/* fopencookie */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "core/kit.h"

const char *applet_name = "kit";
const char *applet_usage;

/* Set by the dying: their one line is said, a write error would be two. */
static bool dying;

/* One line on stderr: "APPLET: message[: strerror(errnum)]". */
static void vmsg(int errnum, const char *fmt, va_list ap)
{
	fflush(stdout);
	fprintf(stderr, "%s: ", applet_name);
	vfprintf(stderr, fmt, ap);
	if (errnum)
		fprintf(stderr, ": %s", strerror(errnum));
	fputc('\n', stderr);
}

void warn_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(0, fmt, ap);
	va_end(ap);
}

void warn_line(const char *line)
{
	warn_msg("%s", line);
}

void kit_note(void (*note)(const char *line), const char *fmt, ...)
{
	char line[PATH_MAX + 256];
	va_list ap;

	if (!note)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	note(line);
}

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(0, fmt, ap);
	va_end(ap);
	dying = true;
	exit(EXIT_RUNTIME);
}

void die_errno(const char *fmt, ...)
{
	int errnum = errno;
	va_list ap;

	va_start(ap, fmt);
	vmsg(errnum, fmt, ap);
	va_end(ap);
	dying = true;
	exit(EXIT_RUNTIME);
}

void die_usage(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(0, fmt, ap);
	va_end(ap);
	dying = true;
	exit(EXIT_USAGE);
}

/* Where malloc() fails, the core's one message (toybox's xmalloc()). */
static void *need_memory(void *p)
{
	if (!p)
		die("out of memory");
	return p;
}

void *xmalloc(size_t size)
{
	return need_memory(malloc(size));
}

void *xcalloc(size_t n, size_t size)
{
	return need_memory(calloc(n, size));
}

void *xrealloc(void *p, size_t size)
{
	return need_memory(realloc(p, size));
}

char *xstrdup(const char *s)
{
	return need_memory(strdup(s));
}

char *xstrndup(const char *s, size_t n)
{
	return need_memory(strndup(s, n));
}

void *grow(void *v, size_t *cap, size_t need, size_t size)
{
	size_t want = need > 2 * *cap ? need : 2 * *cap;

	if (need <= *cap)
		return v;
	if (size && want > SIZE_MAX / size)
		return NULL;
	v = realloc(v, want * size);
	if (v)
		*cap = want;
	return v;
}

void die_err(const struct kit_err *e)
{
	if (e->status == EXIT_USAGE)
		die_usage("%s", e->msg);
	die("%s", e->msg);
}

int kit_fail(struct kit_err *e, int status, int errnum, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	e->status = status;
	if (errnum && n >= 0 && (size_t)n < sizeof(e->msg))
		snprintf(e->msg + n, sizeof(e->msg) - n, ": %s",
			 strerror(errnum));
	return -1;
}

void print_usage(const char *usage)
{
	fputs(usage, stdout);
	fputs("\nExit status: 0 done, 1 runtime error, 2 usage error.\n",
	      stdout);
}

int kit_result(int status, const struct kit_err *e)
{
	if (status == KIT_HELP)
		help_exit();
	if (status < 0)
		die_err(e);
	return status;
}

void help_exit(void)
{
	if (applet_usage)
		print_usage(applet_usage);
	exit(0);
}

/* Why stdout's last write or its close failed; glibc keeps no reason. */
static int stdout_errno;

static ssize_t stdout_write(void *cookie, const char *buf, size_t size)
{
	(void)cookie;
	if (write_all(STDOUT_FILENO, buf, size) < 0) {
		stdout_errno = errno;
		return -1;
	}
	return size;
}

static int stdout_close(void *cookie)
{
	(void)cookie;
	if (close(STDOUT_FILENO) && errno != EINTR) {
		stdout_errno = errno;
		return -1;
	}
	return 0;
}

static void close_stdout(void)
{
	/* fclose() flushes, but does not report an earlier failed write. */
	bool failed = fflush(stdout) || ferror(stdout);

	if (fclose(stdout))
		failed = true;
	if (!failed || dying)
		return;
	fprintf(stderr, "%s: write error: %s\n", applet_name,
		strerror(stdout_errno ? stdout_errno : EIO));
	_exit(EXIT_RUNTIME);
}

void check_stdout(void)
{
	static const cookie_io_functions_t io = {
		.write = stdout_write,
		.close = stdout_close,
	};
	FILE *out = fopencookie(NULL, "w", io);

	if (!out)
		die_errno("cannot set up stdout");
	if (isatty(STDOUT_FILENO))
		setvbuf(out, NULL, _IOLBF, 0);
	stdout = out;
	atexit(close_stdout);
}

/* The options kit_getopt() returned, in order, for opt_exclusive(). */
#define MAX_SEEN 64
static struct {
	char **argv;
	const char *shortopts;
	const struct option *longopts;
	int seen[MAX_SEEN], nseen;
	bool again[MAX_SEEN];	/* seen[i] given more than once */
} opts;

static void record_seen(int opt)
{
	int i;

	for (i = 0; i < opts.nseen; i++)
		if (opts.seen[i] == opt) {
			opts.again[i] = true;
			return;
		}
	if (opts.nseen < MAX_SEEN) {
		opts.again[opts.nseen] = false;
		opts.seen[opts.nseen++] = opt;
	}
}

/* "-x", or "--name" for a long-only option, into buf. */
static const char *option_name(int opt, char *buf, size_t size)
{
	const struct option *o;

	if (opt < 256 && opt != ':' && strchr(opts.shortopts, opt)) {
		snprintf(buf, size, "-%c", opt);
		return buf;
	}
	for (o = opts.longopts; o && o->name; o++)
		if (!o->flag && o->val == opt)
			break;
	snprintf(buf, size, "--%s", o && o->name ? o->name : "?");
	return buf;
}

/* Is opt the val of a long option that takes no value? */
static bool long_flag(int opt)
{
	const struct option *o;

	for (o = opts.longopts; o && o->name; o++)
		if (!o->flag && o->val == opt && o->has_arg == no_argument)
			return true;
	return false;
}

/* The long options that begin with prefix (after its "--"), as
 * "--a, --b" in buf: getopt_long() refuses an abbreviation of two or
 * more as it does an unknown one.  How many there are. */
static int long_matches(const char *prefix, size_t len, char *buf,
			size_t size)
{
	const struct option *o;
	int n = 0, at = 0;

	for (o = opts.longopts; o && o->name; o++)
		if (!strncmp(o->name, prefix, len) && at < (int)size)
			at += snprintf(buf + at, size - at, "%s--%s",
				       n++ ? ", " : "", o->name);
	return n;
}

/*
 * *e for the option getopt refused (opt '?' or ':'); returns '?'.  A long
 * one is argv[optind - 1]; a short one is optopt, which glibc sets to 0
 * for an unknown long option and to the option's val for "--flag=VALUE".
 */
static int option_error(char **argv, int opt, struct kit_err *e)
{
	const char *arg = argv[optind - 1];
	bool is_long = !strncmp(arg, "--", 2) &&
		       (opt == ':' || !optopt ||
			(strchr(arg, '=') && long_flag(optopt)));
	char name[64], matches[256];

	if (is_long)
		snprintf(name, sizeof(name), "%.*s", (int)strcspn(arg, "="),
			 arg);
	else
		snprintf(name, sizeof(name), "-%c", optopt);
	if (is_long && opt == '?' && !optopt &&
	    long_matches(name + 2, strlen(name + 2), matches,
			 sizeof(matches)) > 1)
		kit_fail(e, EXIT_USAGE, 0, "option '%s' is ambiguous (%s); see "
			 "'%s --help'", name, matches, applet_name);
	else if (opt == ':')
		kit_fail(e, EXIT_USAGE, 0, "option '%s' needs a value; see '%s "
			 "--help'", name, applet_name);
	else if (optopt && is_long)
		kit_fail(e, EXIT_USAGE, 0, "option '%s' takes no value; see '%s "
			 "--help'", name, applet_name);
	else
		kit_fail(e, EXIT_USAGE, 0, "unknown option '%s'; see '%s "
			 "--help'", name, applet_name);
	return '?';
}

/* shortopts with ':' (report a missing value) and 'h' added. */
static const char *kit_shortopts(const char *shortopts)
{
	static char buf[128];
	bool in_order = *shortopts == '+';

	if (snprintf(buf, sizeof(buf), "%s:h%s", in_order ? "+" : "",
		     shortopts + in_order) >= (int)sizeof(buf))
		die("internal error: too many options");
	return buf;
}

/* longopts with --help added. */
static const struct option *kit_longopts(const struct option *longopts)
{
	static struct option *copy;
	static const struct option *copied;
	size_t n = 0;

	if (copy && copied == longopts)
		return copy;
	while (longopts && longopts[n].name)
		n++;
	free(copy);
	copy = xcalloc(n + 2, sizeof(*copy));
	if (n)
		memcpy(copy, longopts, n * sizeof(*copy));
	copy[n] = (struct option){ "help", no_argument, NULL, 'h' };
	copied = longopts;
	return copy;
}

int kit_getopt_err(int argc, char **argv, const char *shortopts,
		   const struct option *longopts, struct kit_err *e)
{
	int opt;

	if (opts.argv != argv) {
		opts.argv = argv;
		opts.nseen = 0;
	}
	opts.shortopts = shortopts;
	opts.longopts = longopts;
	opterr = 0;
	opt = getopt_long(argc, argv, kit_shortopts(shortopts),
			  kit_longopts(longopts), NULL);
	if (opt == '?' || opt == ':')
		return option_error(argv, opt, e);
	if (opt != -1 && opt != 'h')
		record_seen(opt);
	return opt;
}

int kit_getopt(int argc, char **argv, const char *shortopts,
	       const struct option *longopts)
{
	struct kit_err e;
	int opt = kit_getopt_err(argc, argv, shortopts, longopts, &e);

	if (opt == 'h')
		help_exit();
	if (opt == '?')
		die_err(&e);
	return opt;
}

int opt_once(const char *group, struct kit_err *e)
{
	char name[64];
	int i;

	for (i = 0; i < opts.nseen; i++)
		if (opts.again[i] && opts.seen[i] < 256 &&
		    strchr(group, opts.seen[i]))
			return kit_fail(e, EXIT_USAGE, 0, "%s given twice: it "
					"takes one value; give it once",
					option_name(opts.seen[i], name,
						    sizeof(name)));
	return 0;
}

int opt_exclusive(const char *group, struct kit_err *e)
{
	char first[64], second[64];
	int i, found = -1;

	for (i = 0; i < opts.nseen; i++) {
		if (opts.seen[i] >= 256 || !strchr(group, opts.seen[i]))
			continue;
		if (found < 0) {
			found = opts.seen[i];
			continue;
		}
		return kit_fail(e, EXIT_USAGE, 0, "%s and %s exclude each "
				"other; give one of them",
				option_name(found, first, sizeof(first)),
				option_name(opts.seen[i], second,
					    sizeof(second)));
	}
	return 0;
}

int parse_ulong(const char *s, int base, unsigned long min,
		unsigned long max, unsigned long *value)
{
	char *end;

	/* strtoul() would take spaces and a sign first. */
	if (*s < '0' || *s > '9') {
		errno = EINVAL;
		return -1;
	}
	errno = 0;
	*value = strtoul(s, &end, base);
	if (*end) {
		errno = EINVAL;
		return -1;
	}
	if (errno || *value < min || *value > max) {
		errno = ERANGE;
		return -1;
	}
	return 0;
}

const char *sysfs_root(void)
{
	const char *root = getenv("KIT_SYSFS");

	return root && *root ? root : "/sys";
}

/* "6.1.76-1" into v[]: how many of its first 3 numbers were read. */
static int parse_version(const char *s, int v[3])
{
	char *end;
	int n = 0;

	while (n < 3 && *s >= '0' && *s <= '9') {
		v[n++] = strtol(s, &end, 10);
		if (*end != '.')
			break;
		s = end + 1;
	}
	return n;
}

int release_version(const char *release, const char *version, int v[3])
{
	const char *debian = version ? strstr(version, "Debian ") : NULL;
	int n, d[3];

	v[0] = v[1] = v[2] = 0;
	n = parse_version(release, v);
	if (n >= 2 && debian &&
	    parse_version(debian + strlen("Debian "), d) == 3 &&
	    d[0] == v[0] && d[1] == v[1])
		v[2] = d[2], n = 3;
	return n;
}

int running_version(int v[3])
{
	const char *release = getenv("KIT_OSRELEASE");
	struct utsname uts;

	if (release && *release)
		return release_version(release, NULL, v);
	if (uname(&uts))
		return 0;
	return release_version(uts.release, uts.version, v);
}

int open_noblock(const char *path)
{
	return open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
}

int regular_file(int fd, const char *path, const char *remedy,
		 struct stat *st, struct kit_err *e)
{
	if (fstat(fd, st))
		return kit_fail(e, EXIT_RUNTIME, errno, "cannot read %s", path);
	if (S_ISDIR(st->st_mode))
		return kit_fail(e, EXIT_RUNTIME, 0, "%s is a directory; %s",
				path, remedy);
	if (!S_ISREG(st->st_mode))
		return kit_fail(e, EXIT_RUNTIME, 0, "%s is not a regular file; "
				"%s", path, remedy);
	return 0;
}

int open_regular(const char *path, const char *remedy, struct stat *st,
		 struct kit_err *e)
{
	int fd = open_noblock(path);

	if (fd < 0)
		return kit_fail(e, EXIT_RUNTIME, errno, "cannot read %s", path);
	if (regular_file(fd, path, remedy, st, e)) {
		close(fd);
		return -1;
	}
	return fd;
}

ssize_t read_fd_text(int fd, char *buf, size_t size)
{
	ssize_t len, n = 0;

	for (len = 0; (size_t)len < size - 1; len += n) {
		n = read(fd, buf + len, size - 1 - len);
		if (n < 0 && errno == EINTR) {
			n = 0;
			continue;
		}
		if (n <= 0)
			break;
	}
	if (n < 0)
		return -1;
	if (len > 0 && buf[len - 1] == '\n')
		len--;
	buf[len] = '\0';
	return len;
}

ssize_t read_text(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), saved;
	ssize_t len;

	if (fd < 0)
		return -1;
	len = read_fd_text(fd, buf, size);
	saved = errno;
	close(fd);
	errno = saved;
	return len;
}

/* The kernel's isspace() (lib/ctype.c: _S), which next_arg() splits at:
 * \t \n \v \f \r, space, and Latin-1's no-break space. */
#define CMDLINE_SPACES	" \t\n\v\f\r\xa0"

char *cmdline_next(char *args, char **param, char **val)
{
	bool in_quote = false, quoted = false;
	size_t i, equals = 0;

	args += strspn(args, CMDLINE_SPACES);
	if (!*args)
		return NULL;
	if (*args == '"') {
		args++;
		in_quote = quoted = true;
	}
	for (i = 0; args[i]; i++) {
		if (!in_quote && strchr(CMDLINE_SPACES, args[i]))
			break;
		/* As next_arg(): an '=' first in the word is no split. */
		if (!equals && args[i] == '=')
			equals = i;
		if (args[i] == '"')
			in_quote = !in_quote;
	}
	*param = args;
	*val = NULL;
	if (equals) {
		args[equals] = '\0';
		*val = args + equals + 1;
		if (**val == '"') {
			(*val)++;
			if (args[i - 1] == '"')
				args[i - 1] = '\0';
		}
	}
	if (quoted && i > 0 && args[i - 1] == '"')
		args[i - 1] = '\0';
	if (args[i])
		args[i++] = '\0';
	if (!*val && !strcmp(*param, "--"))
		return NULL;
	return args + i;
}

ssize_t write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	size_t done = 0;
	ssize_t n;

	while (done < len) {
		n = write(fd, p + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		done += n;
	}
	return done;
}

/*
 * The length of the UTF-8 character at s (len bytes left), or 0 when the
 * bytes there are not one: RFC 3629's table, without overlong forms,
 * surrogates or code points past U+10FFFF.
 */
static size_t utf8_char_len(const unsigned char *s, size_t len)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n, i;

	if (*s < 0x80)
		return 1;
	if (*s < 0xc2 || *s > 0xf4)
		return 0;
	n = *s < 0xe0 ? 2 : *s < 0xf0 ? 3 : 4;
	if (*s == 0xe0)
		lo = 0xa0;
	else if (*s == 0xed)
		hi = 0x9f;
	else if (*s == 0xf0)
		lo = 0x90;
	else if (*s == 0xf4)
		hi = 0x8f;
	if (len < n || s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

char *json_quote(char *p, const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *c = (const void *)s, *end = c + len;
	size_t n;

	*p++ = '"';
	for (; c < end; c += n) {
		n = utf8_char_len(c, end - c);
		if (*c == '"' || *c == '\\') {
			*p++ = '\\';
			*p++ = *c;
		} else if (*c < 0x20 || !n) {
			p = stpcpy(p, "\\u00");
			*p++ = hex[*c >> 4];
			*p++ = hex[*c & 15];
			n = 1;
		} else {
			memcpy(p, c, n);
			p += n;
		}
	}
	*p++ = '"';
	return p;
}

void json_string(FILE *out, const char *s)
{
	size_t len = strlen(s);
	char *buf = xmalloc(JSON_QUOTED_MAX(len));

	fwrite(buf, 1, json_quote(buf, s, len) - buf, out);
	free(buf);
}

void json_value(FILE *out, const char *s)
{
	const char *digits = s + (*s == '-');

	if ((*digits == '0' && !digits[1]) ||
	    (*digits >= '1' && *digits <= '9' &&
	     strspn(digits, "0123456789") == strlen(digits)))
		fputs(s, out);
	else
		json_string(out, s);
}

bool invoked_as_init(const char *argv0)
{
	const char *base = strrchr(argv0, '/');

	return !strcmp(base ? base + 1 : argv0, "init");
}

void put_line(const char *line)
{
	puts(line);
	fflush(stdout);
}

int ask_enter(const char *prompt)
{
	int tty = open("/dev/tty", O_RDONLY | O_CLOEXEC);
	int fd = tty >= 0 ? tty : STDIN_FILENO;
	ssize_t n;
	char c;

	fprintf(stderr, "%s: %s and press ENTER\n", applet_name, prompt);
	do
		n = read(fd, &c, 1);
	while ((n == 1 && c != '\n') || (n < 0 && errno == EINTR));
	if (tty >= 0)
		close(tty);
	if (!n)
		errno = 0;
	return n == 1 ? 0 : -1;
}
