// SPDX-License-Identifier: GPL-2.0
/*
 * kit: the multicall core.  Runs an applet chosen by the name it was
 * called by (a link named after the applet), or by its first argument.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/kit.h"
#include "version.h"

/* Bounds of the section that KIT_APPLET fills, provided by the linker. */
extern const struct applet __start_kit_applets[], __stop_kit_applets[];

#define for_each_applet(a) \
	for (a = __start_kit_applets; a < __stop_kit_applets; a++)

static const char kit_usage[] =
"Usage: kit APPLET [ARGS]...     or     APPLET [ARGS]... through a link\n"
"       kit --help [APPLET]      usage of kit or of one applet\n"
"       kit --list               applet names, one a line\n"
"       kit --install [-s] DIR   a link in DIR for every applet\n"
"                                (hard links; -s: symbolic links)\n"
"       kit --version\n";

static const struct applet *find_applet(const char *name)
{
	const struct applet *a;

	for_each_applet(a)
		if (!strcmp(a->name, name))
			return a;
	return NULL;
}

/* find_applet() for a name the user gave: says so when there is none. */
static const struct applet *named_applet(const char *name)
{
	const struct applet *a = find_applet(name);

	if (!a)
		fprintf(stderr, "kit: applet not found: %s\n", name);
	return a;
}

static int by_name(const void *x, const void *y)
{
	return strcmp((*(const struct applet **)x)->name,
		      (*(const struct applet **)y)->name);
}

/* The applets sorted by name (the linker's order is the link order). */
static const struct applet **sorted_applets(size_t *count)
{
	const struct applet **list, *a;
	size_t n = 0;

	list = xcalloc(__stop_kit_applets - __start_kit_applets,
		       sizeof(*list));
	for_each_applet(a)
		list[n++] = a;
	qsort(list, n, sizeof(*list), by_name);
	*count = n;
	return list;
}

static int kit_help(void)
{
	size_t i, n;
	const struct applet **list = sorted_applets(&n);

	fputs(kit_usage, stdout);
	printf("\nApplets:\n");
	for (i = 0; i < n; i++)
		printf("  %-10s %s\n", list[i]->name, list[i]->summary);
	free(list);
	return 0;
}

static int kit_list(void)
{
	size_t i, n;
	const struct applet **list = sorted_applets(&n);

	for (i = 0; i < n; i++)
		puts(list[i]->name);
	free(list);
	return 0;
}

static int applet_help(const char *name)
{
	const struct applet *a = named_applet(name);

	if (!a)
		return EXIT_NOAPPLET;
	print_usage(a->usage);
	return 0;
}

/*
 * One link DIR/NAME to TARGET (check_install_dir() made sure the path
 * fits); an existing file is left alone.
 */
static int install_link(const char *target, const char *dir,
			const char *name, bool symbolic)
{
	char path[PATH_MAX];
	int ret;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	ret = symbolic ? symlink(target, path) : link(target, path);
	if (ret && errno == EEXIST) {
		warn_msg("%s exists, left alone", path);
		return 0;
	}
	if (ret) {
		warn_msg("cannot link %s to %s: %s", path, target,
			 strerror(errno));
		return -1;
	}
	return 0;
}

/* Refuses, before the first link, a DIR that cannot take them all:
 * hard links to self cannot cross file systems (EXDEV). */
static void check_install_dir(const char *dir, const char *self,
			      bool symbolic)
{
	const int shown = 40;	/* of a path too long to show whole */
	size_t longest = 0;
	const struct applet *a;
	struct stat st, self_st;
	int err = 0;

	for_each_applet(a)
		if (strlen(a->name) > longest)
			longest = strlen(a->name);
	if (strlen(dir) + 1 + longest >= PATH_MAX)
		err = ENAMETOOLONG;
	else if (stat(dir, &st))
		err = errno;
	if (err == ENAMETOOLONG)
		die("--install: %.*s%s is too long a path for the links (at "
		    "most %d bytes, %d a name); give a shorter one", shown,
		    dir, strlen(dir) > (size_t)shown ? "..." : "",
		    PATH_MAX - 1, NAME_MAX);
	if (err == ENOENT)
		die("--install: %s does not exist; create it first "
		    "(mkdir -p %s)", dir, dir);
	if (err)
		die("--install: cannot use %s: %s; give a directory you can "
		    "reach", dir, strerror(err));
	if (!S_ISDIR(st.st_mode))
		die("--install: %s is not a directory; give the directory "
		    "for the links", dir);
	if (access(dir, W_OK) && errno == EROFS)
		die("--install: %s is on a read-only file system; remount it "
		    "read-write, or give another directory", dir);
	if (access(dir, W_OK) && !geteuid())
		die("--install: cannot create links in %s: %s; give another "
		    "directory", dir, strerror(errno));
	if (access(dir, W_OK))
		die("--install: cannot create links in %s: %s; run as root, "
		    "or give a directory you can write in", dir,
		    strerror(errno));
	if (!symbolic && !stat(self, &self_st) && self_st.st_dev != st.st_dev)
		die("--install: %s is on another file system than %s: hard "
		    "links cannot cross file systems; use --install -s", dir,
		    self);
}

/*
 * What the links point to: kit's real path, or for symbolic links in
 * kit's own directory its name alone, so that they still hold when the
 * tree is used elsewhere (a DESTDIR install, an initramfs).
 */
static const char *link_target(const char *self, const char *dir,
			       bool symbolic)
{
	const char *slash = strrchr(self, '/');
	char real_dir[PATH_MAX];

	if (symbolic && slash && realpath(dir, real_dir) &&
	    strlen(real_dir) == (size_t)(slash - self) &&
	    !strncmp(self, real_dir, slash - self))
		return slash + 1;
	return self;
}

static int kit_install(int argc, char **argv)
{
	char target[PATH_MAX];
	const struct applet *a;
	bool symbolic = false, failed = false;

	if (argc > 0 && !strcmp(argv[0], "-s")) {
		symbolic = true;
		argc--, argv++;
	}
	if (argc != 1 || !*argv[0])
		die_usage("--install takes [-s] DIR, the directory for the "
			  "links (kit --install -s /bin)");
	/* Link to the binary itself, wherever the command line found it. */
	if (!realpath("/proc/self/exe", target))
		die_errno("cannot find my own path in /proc/self/exe");
	check_install_dir(argv[0], target, symbolic);
	for_each_applet(a)
		if (install_link(link_target(target, argv[0], symbolic),
				 argv[0], a->name, symbolic))
			failed = true;
	return failed ? EXIT_RUNTIME : 0;
}

static int run_applet(const struct applet *a, int argc, char **argv)
{
	applet_name = a->name;
	applet_usage = a->usage;
	return a->main(argc, argv);
}

static int kit_main(int argc, char **argv)
{
	const struct applet *a;

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		return argc > 2 ? applet_help(argv[2]) : kit_help();
	if (!strcmp(argv[1], "--list"))
		return kit_list();
	if (!strcmp(argv[1], "--version")) {
		printf("kit %s\n", KIT_VERSION);
		return 0;
	}
	if (!strcmp(argv[1], "--install"))
		return kit_install(argc - 2, argv + 2);
	a = named_applet(argv[1]);
	if (!a)
		return EXIT_NOAPPLET;
	return run_applet(a, argc - 1, argv + 1);
}

int main(int argc, char **argv)
{
	const char *base = strrchr(argv[0], '/');
	const struct applet *a;

	check_stdout();
	base = base ? base + 1 : argv[0];
	a = find_applet(base);
	/* The kernel runs /init: kit there boots an old initrd. */
	if (!a && invoked_as_init(argv[0]))
		a = find_applet("initrd");
	if (a)
		return run_applet(a, argc, argv);
	return kit_main(argc, argv);
}
