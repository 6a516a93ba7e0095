// SPDX-License-Identifier: GPL-2.0
/*
 * cpio: mkcpio's newc archive (the format the kernel's init/initramfs.c
 * reads), written as OUT.XXXXXX beside OUT and renamed over it when
 * whole.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/kit.h"
#include "boot/boot.h"
#include "boot/mkcpio.h"

/* ---- mkcpio: a newc archive ---- */

static int write_error(struct cpio *c)
{
	return kit_fail(c->err, EXIT_RUNTIME, errno, "write error on %s",
			c->path);
}

static int cpio_write(struct cpio *c, const void *buf, size_t len)
{
	static const char zeros[4];

	if (write_all(c->fd, buf, len) < 0)
		return write_error(c);
	c->offset += len;
	if (c->offset % 4 && write_all(c->fd, zeros, 4 - c->offset % 4) < 0)
		return write_error(c);
	c->offset = (c->offset + 3) & ~3ULL;
	return 0;
}

/* One header and name; the data follows, padded to 4 bytes. */
int boot_cpio_header(struct cpio *c, const char *name, unsigned int mode,
		     dev_t rdev, unsigned long size)
{
	char hdr[111 + PATH_MAX];
	int len;

	if (size > CPIO_FILE_MAX)
		return kit_fail(c->err, EXIT_RUNTIME, 0, "%s: %lu bytes is "
				"more than a newc cpio can hold", name,
				size);
	len = snprintf(hdr, sizeof(hdr),
		       "070701%08lX%08X%08X%08X%08X%08X%08lX%08X%08X%08X"
		       "%08X%08zX%08X%s", ++c->ino, mode, 0, 0,
		       S_ISDIR(mode) ? 2 : 1, 0, size, 0, 0, major(rdev),
		       minor(rdev), strlen(name) + 1, 0, name);
	return cpio_write(c, hdr, len + 1);
}

int boot_cpio_data(struct cpio *c, const char *name, unsigned int mode,
		   const void *data, size_t size)
{
	if (boot_cpio_header(c, name, mode, 0, size))
		return -1;
	return cpio_write(c, data, size);
}

/* The file's bytes after the header: left of them, unpadded. */
static int copy_file(struct cpio *c, int fd, const char *path, off_t left)
{
	char buf[65536];
	ssize_t n;

	for (; left > 0; left -= n) {
		n = read(fd, buf, left < (off_t)sizeof(buf) ?
				  (size_t)left : sizeof(buf));
		if (n <= 0)
			return kit_fail(c->err, EXIT_RUNTIME, 0,
					"%s changed while it was read",
					path);
		if (write_all(c->fd, buf, n) < 0)
			return write_error(c);
		c->offset += n;
	}
	return 0;
}

int boot_cpio_file(struct cpio *c, const char *name, const char *path,
		   const char *remedy)
{
	struct stat st;
	int ret = -1, fd = open_regular(path, remedy, &st, c->err);

	if (fd < 0)
		return -1;
	if (boot_cpio_header(c, name, S_IFREG | (st.st_mode & 0755), 0,
			st.st_size) ||
	    copy_file(c, fd, path, st.st_size))
		goto out;
	ret = cpio_write(c, "", 0);
out:
	close(fd);
	return ret;
}

/*
 * A regular OUT, or a new one, is written as OUT.XXXXXX in its directory
 * and renamed over it when whole: a failure or a signal leaves no half
 * archive, and an old OUT stays as it was.
 */
static char partial[PATH_MAX];

static void remove_partial(void)
{
	if (partial[0])
		unlink(partial);
}

/* A signal that would end mkcpio: the partial file goes, then the
 * signal does what it would have done. */
static void remove_partial_on_signal(int sig)
{
	remove_partial();
	raise(sig);
}

/*
 * Every signal whose default action ends the process and that can be
 * caught (signal(7): Term and Core; not KILL, which cannot be), the
 * real-time ones too: Ctrl-\ (QUIT), a full pipe reader gone (PIPE),
 * RLIMIT_FSIZE reached (XFSZ) and the timers all end it as INT does.
 */
static const int partial_signals[] = {
	SIGHUP, SIGINT, SIGQUIT, SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE,
	SIGUSR1, SIGSEGV, SIGUSR2, SIGPIPE, SIGALRM, SIGTERM, SIGSTKFLT,
	SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF, SIGIO, SIGPWR, SIGSYS,
};

static void partial_signal_set(sigset_t *set)
{
	size_t i;
	int sig;

	sigemptyset(set);
	for (i = 0; i < sizeof(partial_signals) / sizeof(*partial_signals);
	     i++)
		sigaddset(set, partial_signals[i]);
	for (sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
		sigaddset(set, sig);
}

static void block_partial_signals(int how)
{
	sigset_t set;

	partial_signal_set(&set);
	sigprocmask(how, &set, NULL);
}

/* The partial file removed, and forgotten. */
static void drop_partial(void)
{
	block_partial_signals(SIG_BLOCK);
	remove_partial();
	partial[0] = '\0';
	block_partial_signals(SIG_UNBLOCK);
}

/* The handler, for each of those signals not ignored (nohup). */
static void catch_partial_signals(void)
{
	struct sigaction sa = { .sa_handler = remove_partial_on_signal,
				.sa_flags = SA_RESETHAND }, old;
	sigset_t set;
	int sig;

	partial_signal_set(&set);
	for (sig = 1; sig < NSIG; sig++)
		if (sigismember(&set, sig) == 1 &&
		    !sigaction(sig, NULL, &old) && old.sa_handler != SIG_IGN)
			sigaction(sig, &sa, NULL);
}

/*
 * The partial file beside path, with the mode OUT will have: an old
 * OUT's mode and owner (root can keep them), else what open(O_CREAT,
 * 0666) gives under the umask.
 */
static int open_partial(const char *path, const struct stat *old,
			struct kit_err *e)
{
	mode_t mask = umask(0);
	int fd;

	umask(mask);
	if (snprintf(partial, sizeof(partial), "%s.XXXXXX", path) >=
	    (int)sizeof(partial)) {
		partial[0] = '\0';
		return kit_fail(e, EXIT_USAGE, 0, "-o %s: path too long",
				path);
	}
	catch_partial_signals();
	/* The name is whole before a handler may unlink it. */
	block_partial_signals(SIG_BLOCK);
	fd = mkostemp(partial, O_CLOEXEC);
	if (fd < 0)
		partial[0] = '\0';
	block_partial_signals(SIG_UNBLOCK);
	if (fd < 0)
		return kit_fail(e, EXIT_RUNTIME, errno, "cannot create %s",
				path);
	if (old && !geteuid() && fchown(fd, old->st_uid, old->st_gid)) {
		kit_fail(e, EXIT_RUNTIME, errno, "cannot give %s the owner "
			 "of %s", partial, path);
		goto fail;
	}
	if (fchmod(fd, old ? old->st_mode & 07777 : 0666 & ~mask)) {
		kit_fail(e, EXIT_RUNTIME, errno, "cannot set the mode of %s",
			 partial);
		goto fail;
	}
	return fd;
fail:
	close(fd);
	drop_partial();
	return -1;
}

/* A new OUT, or a symlink to nothing (refused), once stat() failed. */
static int open_new(const char *out, char **target, struct kit_err *e)
{
	struct stat st;

	if (errno != ENOENT)
		return kit_fail(e, EXIT_RUNTIME, errno, "cannot write %s",
				out);
	if (!lstat(out, &st))
		return kit_fail(e, EXIT_RUNTIME, 0, "-o %s is a symlink to "
				"nothing; give the archive's file name",
				out);
	*target = strdup(out);
	if (!*target)
		return kit_fail(e, EXIT_RUNTIME, errno, "cannot write %s",
				out);
	return open_partial(out, NULL, e);
}

/* A character device or a pipe, written in place: never a terminal. */
static int open_in_place(const char *out, struct kit_err *e)
{
	int fd = open(out, O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return kit_fail(e, EXIT_RUNTIME, errno, "cannot write %s",
				out);
	if (isatty(fd)) {
		close(fd);
		return kit_fail(e, EXIT_USAGE, 0, "the cpio is binary: -o "
				"%s is a terminal", out);
	}
	return fd;
}

/*
 * OUT as -o names it: a regular file (through symlinks too: the link
 * stays) or a new name gets the partial file; a character device or a
 * pipe (/dev/stdout) is written in place; nothing else.  Checked before
 * the archive is built.
 */
int boot_open_output(const char *out, char **target, struct kit_err *e)
{
	struct stat st;

	*target = NULL;
	if (!*out)
		return kit_fail(e, EXIT_USAGE, 0, "-o takes the archive's "
				"file name, got ''");
	if (out[strlen(out) - 1] == '/')
		return kit_fail(e, EXIT_RUNTIME, 0, "-o %s names a "
				"directory; give the archive's file name, "
				"e.g. -o %sinitrd.cpio", out, out);
	if (stat(out, &st))
		return open_new(out, target, e);
	if (S_ISDIR(st.st_mode))
		return kit_fail(e, EXIT_RUNTIME, 0, "-o %s is a directory; "
				"give the archive's file name, e.g. -o "
				"%s/initrd.cpio", out, out);
	if (S_ISREG(st.st_mode)) {
		*target = realpath(out, NULL);
		if (!*target)
			return kit_fail(e, EXIT_RUNTIME, errno, "cannot "
					"resolve %s", out);
		return open_partial(*target, &st, e);
	}
	if (!S_ISCHR(st.st_mode) && !S_ISFIFO(st.st_mode))
		return kit_fail(e, EXIT_RUNTIME, 0, "-o %s is neither a file, "
				"a pipe nor a character device: mkcpio does "
				"not write over it", out);
	return open_in_place(out, e);
}

/* A regular OUT's partial file, whole, takes its place; on an error it
 * goes, and an old OUT stays. */
int boot_close_output(struct cpio *c, const char *target)
{
	if (close(c->fd) || (target && rename(partial, target))) {
		write_error(c);
		drop_partial();
		return -1;
	}
	partial[0] = '\0';
	return 0;
}

/* An archive left half-written: closed, its partial file gone. */
void boot_discard_output(struct cpio *c)
{
	close(c->fd);
	drop_partial();
}
