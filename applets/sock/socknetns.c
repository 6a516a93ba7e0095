// SPDX-License-Identifier: GPL-2.0
/* tcpiter's and udpiter's network namespaces: -N NETNS and --all-netns. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/nsfs.h>

#include "core/kit.h"
#include "sock/socknetns.h"

/* path opened as a network namespace; -1 with errno set when it is not,
 * or no longer, one: ENOENT (gone) or EINVAL (another kind of file, a
 * FIFO among them, which open() does not wait on). */
static int open_netns(const char *path)
{
	int fd = open_noblock(path);

	if (fd >= 0 && ioctl(fd, NS_GET_NSTYPE) != CLONE_NEWNET) {
		close(fd);
		errno = EINVAL;
		return -1;
	}
	return fd;
}

static const char *netns_error(int err)
{
	return err == EINVAL ? "not a network namespace" : strerror(err);
}

/* The remedy for a namespace -N could not open, by why. */
static const char *netns_remedy(int err)
{
	if (err == ENOENT || err == EINVAL)
		return "; ip netns list names them, or give a path or pid:PID";
	if (err == EACCES || err == EPERM)
		return "; run as root";
	return "";
}

static int enter_netns(int fd, const char *what, struct kit_err *e)
{
	int err = setns(fd, CLONE_NEWNET);

	if (err)
		kit_fail(e, EXIT_RUNTIME, errno,
			 "cannot enter network namespace %s", what);
	close(fd);
	return err ? -1 : 0;
}

static bool all_digits(const char *s)
{
	return *s && strspn(s, "0123456789") == strlen(s);
}

/* path = format with -N's spec in it; cut short, it could name another
 * namespace's file. */
static int spec_path(char *path, size_t size, const char *format,
		     const char *spec, struct kit_err *e)
{
	if (snprintf(path, size, format, spec) >= (int)size)
		return kit_fail(e, EXIT_USAGE, 0, "-N takes a name or path "
				"shorter than %zu bytes, got %zu", size,
				strlen(spec));
	return 0;
}

/*
 * -N SPEC's path into path.  An all-digit SPEC names the process only
 * when no entry of /run/netns has that name (ip netns add takes "2", and
 * PID 2 is kthreadd in the host's namespace); when both exist it is
 * refused.
 */
static int netns_path(const char *spec, char *path, size_t size,
		      struct kit_err *e)
{
	char proc[32];
	struct stat st;
	bool named;

	if (strchr(spec, '/'))
		return spec_path(path, size, "%s", spec, e);
	if (!strncmp(spec, "pid:", 4)) {
		if (!all_digits(spec + 4))
			return kit_fail(e, EXIT_USAGE, 0, "-N pid:PID takes a "
					"process number, got '%s'", spec);
		return spec_path(path, size, "/proc/%s/ns/net", spec + 4, e);
	}
	if (spec_path(path, size, "/run/netns/%s", spec, e))
		return -1;
	if (!all_digits(spec))
		return 0;
	named = !lstat(path, &st);
	snprintf(proc, sizeof(proc), "/proc/%.20s", spec);
	if (named && !stat(proc, &st))
		return kit_fail(e, EXIT_USAGE, 0, "-N %s is both /run/netns/%s "
				"and process %s: say -N /run/netns/%s or -N "
				"pid:%s", spec, spec, spec, spec, spec);
	if (!named)
		return spec_path(path, size, "/proc/%s/ns/net", spec, e);
	return 0;
}

int sock_enter_named_netns(const char *spec, struct kit_err *e)
{
	char path[PATH_MAX];
	int fd;

	if (netns_path(spec, path, sizeof(path), e))
		return -1;
	fd = open_netns(path);
	if (fd < 0 && errno != ENOENT && errno != EINVAL)
		return kit_fail(e, EXIT_RUNTIME, 0, "cannot open network "
				"namespace %s (%s: %s)%s", spec, path,
				netns_error(errno), netns_remedy(errno));
	if (fd < 0)
		return kit_fail(e, EXIT_RUNTIME, 0, "unknown network namespace "
				"%s (%s: %s)%s", spec, path, netns_error(errno),
				netns_remedy(errno));
	return enter_netns(fd, spec, e);
}

static int add_netns(struct sock_netns_list *l, const char *path,
		     const char *label, struct kit_err *e)
{
	struct sock_netns *ns;
	struct stat st;
	size_t i;

	if (stat(path, &st))
		return 0;
	for (i = 0; i < l->n; i++)
		if (l->ns[i].dev == st.st_dev && l->ns[i].ino == st.st_ino)
			return 0;
	ns = grow(l->ns, &l->cap, l->n + 1, sizeof(*l->ns));
	if (!ns)
		return kit_fail(e, EXIT_RUNTIME, 0, "out of memory");
	l->ns = ns;
	ns += l->n++;
	ns->dev = st.st_dev;
	ns->ino = st.st_ino;
	snprintf(ns->path, sizeof(ns->path), "%s", path);
	snprintf(ns->label, sizeof(ns->label), "net:[%lu] %s",
		 (unsigned long)st.st_ino, label);
	return 0;
}

static int add_netns_dir(struct sock_netns_list *l, const char *dir,
			 bool pids, struct kit_err *e)
{
	char path[64 + 256], label[64 + 256];
	struct dirent *d;
	DIR *dp = opendir(dir);
	int err = 0;

	if (!dp)
		return 0;
	while (!err && (d = readdir(dp))) {
		if (d->d_name[0] == '.')
			continue;
		if (pids && !all_digits(d->d_name))
			continue;
		snprintf(path, sizeof(path), pids ? "%s/%s/ns/net" : "%s/%s",
			 dir, d->d_name);
		snprintf(label, sizeof(label), pids ? "pid %s" : "%s",
			 d->d_name);
		err = add_netns(l, path, label, e);
	}
	closedir(dp);
	return err;
}

static int by_inode(const void *x, const void *y)
{
	const struct sock_netns *a = x, *b = y;

	return a->ino < b->ino ? -1 : a->ino > b->ino;
}

int sock_list_netns(struct sock_netns_list *l, struct kit_err *e)
{
	if (add_netns_dir(l, "/run/netns", false, e) ||
	    add_netns_dir(l, "/proc", true, e))
		return -1;
	qsort(l->ns, l->n, sizeof(*l->ns), by_inode);
	return 0;
}

int sock_enter_listed_netns(const struct sock_netns *ns, const char **why,
			    struct kit_err *e)
{
	int fd = open_netns(ns->path);

	/* a stale entry of /run/netns, a process gone meanwhile */
	if (fd < 0 && (errno == ENOENT || errno == ESRCH || errno == EINVAL)) {
		*why = netns_error(errno);
		return 1;
	}
	if (fd < 0)
		return kit_fail(e, EXIT_RUNTIME, errno,
				"cannot open network namespace %s",
				ns->path);
	return enter_netns(fd, ns->label, e);
}
