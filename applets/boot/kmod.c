// SPDX-License-Identifier: GPL-2.0
/*
 * kmod: the modules a boot needs, with their dependencies in load order
 * as kmod's modprobe resolves them (modules.dep, softdep, alias,
 * builtin), put in the cpio with the list /init loads them from.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/kit.h"
#include "boot/boot.h"
#include "boot/mkcpio.h"

/* ---- mkcpio: modules and their dependencies ---- */

/* A module's name from its path: kernel/fs/ext4/ext4.ko.xz is ext4. */
void boot_module_name(const char *path, size_t len, char *name, size_t size)
{
	const char *base = path, *p;
	size_t n;

	for (p = path; p < path + len; p++)
		if (*p == '/')
			base = p + 1;
	n = path + len - base;
	for (p = base; p + 3 <= path + len; p++)
		if (!strncmp(p, ".ko", 3)) {
			n = p - base;
			break;
		}
	if (n >= size)
		n = size - 1;
	for (p = base; p < base + n; p++)
		*name++ = *p == '-' ? '_' : *p;
	*name = '\0';
}

/* The line of modules.dep (or modules.builtin) whose module is name. */
static char *find_module_line(char *list, const char *name, size_t *len)
{
	char key[64], *line, *end;

	for (line = list; line && *line; line = end ? end + 1 : NULL) {
		end = strchr(line, '\n');
		*len = strcspn(line, ":\n");
		boot_module_name(line, *len, key, sizeof(key));
		if (!strcmp(key, name))
			return line;
	}
	return NULL;
}

static int too_many(struct modules *m)
{
	return kit_fail(m->err, EXIT_RUNTIME, 0, "more than %d modules",
			MODULES_MAX);
}

/* Whether line is in set[n]. */
static bool in_set(char **set, int n, const char *line)
{
	int i;

	for (i = 0; i < n; i++)
		if (set[i] == line)
			return true;
	return false;
}

/* line added to set[*n], where it was not. */
static int add_to_set(struct modules *m, char **set, int *n, char *line)
{
	if (*n == MODULES_MAX)
		return too_many(m);
	set[(*n)++] = line;
	return 0;
}

/* The index of the module of line in the load order, or -1. */
static int chosen_index(struct modules *m, const char *line, size_t len)
{
	int i;

	for (i = 0; i < m->count; i++)
		if (strlen(m->chosen[i]) == len &&
		    !strncmp(m->chosen[i], line, len))
			return i;
	return -1;
}

static int choose(struct modules *m, const char *line, size_t len,
		  bool soft)
{
	int i = chosen_index(m, line, len);

	if (i >= 0) {
		m->soft[i] &= soft;
		return 0;
	}
	if (m->count == MODULES_MAX)
		return too_many(m);
	m->chosen[m->count] = strndup(line, len);
	if (!m->chosen[m->count])
		return kit_fail(m->err, EXIT_RUNTIME, ENOMEM, "cannot "
				"choose %.*s", (int)len, line);
	m->soft[m->count++] = soft;
	return 0;
}

/* The dependencies a modules.dep line lists, into deps (NULL: counted
 * only); their number. */
static int dep_words(char *line, char **deps)
{
	char *p = line + strcspn(line, ":\n") + 1;
	int n;

	for (n = 0;; n++) {
		p += strspn(p, " ");
		if (*p == '\n' || !*p)
			return n;
		if (deps)
			deps[n] = p;
		p += strcspn(p, " \n");
	}
}

/*
 * Every dependency of a modules.dep line, however many: it lists the
 * whole closure, dozens for a GPU driver.  *deps is the caller's to
 * free; their number, or -1 with *m->err.
 */
static int dep_list(struct modules *m, char *line, char ***deps)
{
	int n = dep_words(line, NULL);

	*deps = malloc((n + 1) * sizeof(**deps));
	if (!*deps)
		return kit_fail(m->err, EXIT_RUNTIME, ENOMEM, "cannot read "
				"%s/modules.dep", m->dir);
	return dep_words(line, *deps);
}

/* *line: the modules.dep line of a dependency, or NULL when built in;
 * a missing one is refused unless only a soft dependency needs it. */
static int dep_line(struct modules *m, const char *path, bool soft,
		    char **line)
{
	char name[64];
	size_t len;

	boot_module_name(path, strcspn(path, " \n"), name, sizeof(name));
	*line = find_module_line(m->dep, name, &len);
	if (!*line && !soft &&
	    !(m->builtin && find_module_line(m->builtin, name, &len)))
		return kit_fail(m->err, EXIT_RUNTIME, 0, "no module %s in "
				"%s/modules.dep", name, m->dir);
	return 0;
}

/*
 * A module that needs itself through modules.dep never loads: each
 * waits for the other.  depmod refuses such a cycle
 * (depmod_report_cycles()); a hand-made file may still hold one.
 */
static int report_cycle(struct modules *m, char **path, int from,
			int depth)
{
	char chain[1024] = "", name[64];
	int i, at = 0;

	for (i = from; i <= depth; i++) {
		boot_module_name(path[i], strcspn(path[i], ":\n"), name,
			    sizeof(name));
		at += snprintf(chain + at, sizeof(chain) - at, "%s%s",
			       at ? " -> " : "", name);
		if (at >= (int)sizeof(chain))
			break;
	}
	return kit_fail(m->err, EXIT_RUNTIME, 0, "%s/modules.dep has a "
			"dependency cycle, %s: no order loads them; run "
			"depmod", m->dir, chain);
}

/* path[MODULES_MAX + 1]: the modules.dep lines from the one asked for
 * to line; a path of distinct modules longer than that is too many. */
static int check_cycle(struct modules *m, char *line, char **path,
		       int depth)
{
	char **deps, *dline;
	int i, n, ret = -1;

	if (in_set(m->acyclic, m->nacyclic, line))
		return 0;
	for (i = 0; i < depth && path[i] != line; i++)
		;
	if (i < depth) {
		path[depth] = line;
		return report_cycle(m, path, i, depth);
	}
	if (depth == MODULES_MAX)
		return too_many(m);
	path[depth] = line;
	n = dep_list(m, line, &deps);
	if (n < 0)
		return -1;
	for (i = 0; i < n; i++) {
		if (dep_line(m, deps[i], true, &dline) ||
		    (dline && check_cycle(m, dline, path, depth + 1)))
			goto out;
	}
	ret = add_to_set(m, m->acyclic, &m->nacyclic, line);
out:
	free(deps);
	return ret;
}

static int load_order(struct modules *m, char *line, bool soft);

/* The module of a modules.dep line, unless soft and visited already:
 * each soft dependency once, as kmod visits it. */
static int soft_module(struct modules *m, char *line, bool soft)
{
	if (soft && in_set(m->visited, m->nvisited, line))
		return 0;
	return load_order(m, line, soft);
}

/*
 * Every module modprobe would load for word (kmod_module_new_from_lookup()):
 * the module of that name; else each module modules.alias gives it (its
 * patterns as fnmatch() reads them); else nothing when it is built in, by
 * name or by alias.  1, 0 when nothing knows word, or -1 with *m->err.
 */
static int add_wanted(struct modules *m, const char *word, bool soft);

/*
 * What "softdep NAME pre: A B post: C" (modules.softdep) names in part
 * (pre: or post:), each through modules.alias: ext4 asks the crypto API
 * for crc32c, which only modprobe would load, and there is none at boot.
 */
static int add_softdeps(struct modules *m, const char *name,
			const char *part)
{
	char key[80], word[80], *line, *p, *end;
	size_t klen = snprintf(key, sizeof(key), "softdep %s ", name);

	for (line = m->softdep; line && *line; line = strchr(line, '\n')) {
		line += *line == '\n';
		if (strncmp(line, key, klen))
			continue;
		end = line + strcspn(line, "\n");
		p = strstr(line, part);
		if (!p || p > end)
			continue;
		for (p += strlen(part); p < end; p += strcspn(p, " \n")) {
			p += strspn(p, " ");
			if (sscanf(p, "%79[^ \n]", word) != 1 ||
			    strchr(word, ':'))
				break;
			if (add_wanted(m, word, true) < 0)
				return -1;
		}
	}
	return 0;
}

/* A modules.dep line's dependencies in the order, once no cycle is
 * found through them. */
static int load_deps(struct modules *m, char *line, bool soft)
{
	char **deps, *path[MODULES_MAX + 1], *dline;
	int n, i, ret = -1;

	if (check_cycle(m, line, path, 0))
		return -1;
	n = dep_list(m, line, &deps);
	if (n < 0)
		return -1;
	while (n-- > 0) {
		if (dep_line(m, deps[n], soft, &dline))
			goto out;
		i = dline ? chosen_index(m, dline, strcspn(dline, ":\n")) : -1;
		/* In the order already, as hard as asked: done. */
		if (dline && (i < 0 || (m->soft[i] && !soft)) &&
		    load_order(m, dline, soft))
			goto out;
	}
	ret = 0;
out:
	free(deps);
	return ret;
}

/*
 * The module of a modules.dep line and what it needs: its dependencies
 * (modules.dep lists them in the order modprobe unloads them), then its
 * "pre:" soft dependencies, itself and its "post:" ones, each
 * dependency likewise, as kmod's __kmod_module_get_probe_list() orders
 * them.
 */
static int load_order(struct modules *m, char *line, bool soft)
{
	size_t len = strcspn(line, ":\n");
	bool first = !in_set(m->visited, m->nvisited, line);
	char name[64];

	if ((first && add_to_set(m, m->visited, &m->nvisited, line)) ||
	    load_deps(m, line, soft))
		return -1;
	boot_module_name(line, len, name, sizeof(name));
	if (first && add_softdeps(m, name, "pre:"))
		return -1;
	if (choose(m, line, len, soft))
		return -1;
	if (first && add_softdeps(m, name, "post:"))
		return -1;
	return 0;
}

/* kmod's alias_normalize(): '-' is '_', but inside [...] patterns. */
static void normalize(const char *s, size_t len, char *out, size_t size)
{
	bool bracket = false;
	size_t i;

	for (i = 0; i < len && i < size - 1; i++) {
		bracket = s[i] == '[' ? true : s[i] == ']' ? false : bracket;
		out[i] = s[i] == '-' && !bracket ? '_' : s[i];
	}
	out[i] = '\0';
}

/* Each module modules.alias gives for name (normalized); how many, or
 * -1 with *m->err. */
static int add_aliased(struct modules *m, const char *name, bool soft)
{
	char pattern[256], word[64], mod[64], *line, *dline;
	size_t plen, len;
	int found = 0;

	for (line = m->alias; line && *line; line = strchr(line, '\n')) {
		line += *line == '\n';
		if (strncmp(line, "alias ", 6))
			continue;
		plen = strcspn(line + 6, " \n");
		normalize(line + 6, plen, pattern, sizeof(pattern));
		if (fnmatch(pattern, name, 0) ||
		    sscanf(line + 6 + plen, " %63s", word) != 1)
			continue;
		boot_module_name(word, strlen(word), mod, sizeof(mod));
		dline = find_module_line(m->dep, mod, &len);
		if (!dline)
			return kit_fail(m->err, EXIT_RUNTIME, 0, "%s/modules."
					"alias gives %s for %s, which "
					"modules.dep lacks; run depmod",
					m->dir, mod, name);
		if (soft_module(m, dline, soft))
			return -1;
		found++;
	}
	return found;
}

/* Whether modules.builtin.modinfo has an alias matching name. */
static bool builtin_alias(struct modules *m, const char *name)
{
	char pattern[256], *p, *end = m->builtin_info + m->builtin_info_size;

	for (p = m->builtin_info; p && p < end; p += strlen(p) + 1) {
		char *value = strstr(p, ".alias=");

		/* Its key is NAME.alias, up to the first '='. */
		if (!value || value + strlen(".alias") != p + strcspn(p, "="))
			continue;
		value += strlen(".alias=");
		normalize(value, strlen(value), pattern, sizeof(pattern));
		if (!fnmatch(pattern, name, 0))
			return true;
	}
	return false;
}

static int add_wanted(struct modules *m, const char *word, bool soft)
{
	char name[256], *line;
	size_t len;
	int found;

	boot_module_name(word, strlen(word), name, sizeof(name));
	line = find_module_line(m->dep, name, &len);
	if (line)
		return soft_module(m, line, soft) ? -1 : 1;
	normalize(word, strlen(word), name, sizeof(name));
	found = add_aliased(m, name, soft);
	if (found)
		return found < 0 ? -1 : 1;
	return (m->builtin && find_module_line(m->builtin, name, &len)) ||
	       builtin_alias(m, name);
}

/* A module the boot needs (-m, brd, the image's filesystem): a request
 * of its own, as one modprobe is. */
int boot_add_module(struct modules *m, const char *word)
{
	int found;

	m->nvisited = 0;
	found = add_wanted(m, word, false);
	if (!found)
		return kit_fail(m->err, EXIT_RUNTIME, 0, "no module %s in "
				"%s/modules.dep, modules.alias or "
				"modules.builtin; check its name, and that -k "
				"names the kernel that has it", word, m->dir);
	return found < 0 ? -1 : 0;
}

/*
 * *buf: the file whole, NUL-terminated (its size in *size), or NULL
 * when it cannot be opened (errno says why).  -1 with *e when it opened
 * but is no regular file or could not be read.
 */
static int read_whole(const char *path, char **buf, size_t *size,
		      struct kit_err *e)
{
	struct stat st;
	int ret = 0, fd = open_noblock(path);

	*buf = NULL;
	if (fd < 0)
		return 0;
	if (regular_file(fd, path, "reinstall its package", &st, e)) {
		ret = -1;
		goto out;
	}
	*buf = malloc(st.st_size + 1);
	if (!*buf || read(fd, *buf, st.st_size) != st.st_size) {
		free(*buf);
		*buf = NULL;
		ret = kit_fail(e, EXIT_RUNTIME, 0, "cannot read %s", path);
		goto out;
	}
	(*buf)[st.st_size] = '\0';
	if (size)
		*size = st.st_size;
out:
	close(fd);
	return ret;
}

/* A file of the modules' directory; one that is not there is NULL. */
static int read_list(struct modules *m, const char *file, char **buf,
		     size_t *size)
{
	char path[PATH_MAX + 32];

	snprintf(path, sizeof(path), "%s/%s", m->dir, file);
	return read_whole(path, buf, size, m->err);
}

int boot_open_modules(struct modules *m, const char *root, const char *kver)
{
	if (snprintf(m->dir, sizeof(m->dir), "%s/lib/modules/%s",
		     strcmp(root, "/") ? root : "", kver) >= (int)sizeof(m->dir))
		return kit_fail(m->err, EXIT_USAGE, 0, "-r %s: path too "
				"long", root);
	if (read_list(m, "modules.dep", &m->dep, NULL))
		return -1;
	if (!m->dep)
		return kit_fail(m->err, EXIT_RUNTIME, errno, "cannot read "
				"%s/modules.dep (give -k KVER of an "
				"installed kernel, or -r ROOT)", m->dir);
	if (read_list(m, "modules.builtin", &m->builtin, NULL) ||
	    read_list(m, "modules.softdep", &m->softdep, NULL) ||
	    read_list(m, "modules.alias", &m->alias, NULL) ||
	    read_list(m, "modules.builtin.modinfo", &m->builtin_info,
		      &m->builtin_info_size))
		return -1;
	return 0;
}

void boot_close_modules(struct modules *m)
{
	int i;

	for (i = 0; i < m->count; i++)
		free(m->chosen[i]);
	free(m->dep);
	free(m->builtin);
	free(m->softdep);
	free(m->alias);
	free(m->builtin_info);
}

/*
 * The module is for the machine /init runs on: a kernel runs an /init
 * of its own architecture only (else "Failed to execute /init (error
 * -8)", kernel_init()), and an image made on another machine takes
 * that machine's kit unless told.  (An arm64 kernel with CONFIG_COMPAT
 * would run a 32-bit ARM kit too; mkcpio asks for the kernel's own.)
 * Checked as the modules are packed: a wrapper with no module (brd built
 * in) is not checked.  0, or -1 with *m->err.
 */
static int same_machine(struct modules *m, const char *path,
			const unsigned char *ko, size_t size)
{
	unsigned int machine = boot_elf_machine(ko, size);
	const char *arch = boot_machine_arch(machine);

	if (machine == m->machine)
		return 0;
	if (!arch)
		return kit_fail(m->err, EXIT_RUNTIME, 0,
				"%s is for ELF machine %u, which kit is not "
				"built for", path, machine);
	return kit_fail(m->err, EXIT_RUNTIME, 0, "%s is a module for %s, but "
			"/init would be %s, built for %s; give -i KIT, a kit "
			"built with make ARCH=%s", path, arch, m->init_name,
			boot_machine_arch(m->machine) ?: "another machine", arch);
}

/* The module at path, unpacked, into the cpio as arcname. */
static int cpio_module(struct cpio *c, struct modules *m, const char *path,
		       const char *arcname)
{
	struct unpacked ko = { NULL, 0, 0 };
	size_t in_size;
	char *in;
	const char *why;
	int ret = -1;

	if (read_whole(path, &in, &in_size, c->err))
		return -1;
	if (!in)
		return kit_fail(c->err, EXIT_RUNTIME, errno, "cannot read "
				"%s", path);
	why = boot_unpack_module_data(path, (unsigned char *)in, in_size, &ko);
	if (why) {
		kit_fail(c->err, EXIT_RUNTIME, 0, "%s %s; reinstall its "
			 "package", path, why);
		goto out;
	}
	if (same_machine(m, path, ko.data, ko.size))
		goto out;
	ret = boot_cpio_data(c, arcname, S_IFREG | 0644, ko.data, ko.size);
out:
	free(ko.data);
	free(in);
	return ret;
}

/* The modules and the list that /init loads them from. */
int boot_cpio_modules(struct cpio *c, struct modules *m)
{
	char list[16384], name[64], path[2 * PATH_MAX], arcname[128];
	size_t len = 0;
	int i;

	if (boot_cpio_data(c, "kit/lib", S_IFDIR | 0755, NULL, 0))
		return -1;
	for (i = 0; i < m->count; i++) {
		boot_module_name(m->chosen[i], strlen(m->chosen[i]), name,
			    sizeof(name));
		snprintf(path, sizeof(path), "%s/%s", m->dir, m->chosen[i]);
		snprintf(arcname, sizeof(arcname), "kit/lib/%s.ko", name);
		if (cpio_module(c, m, path, arcname))
			return -1;
		len += snprintf(list + len, sizeof(list) - len, "%s /%s%s\n",
				name, arcname, m->soft[i] ? " soft" : "");
		if (len >= sizeof(list))
			return kit_fail(c->err, EXIT_RUNTIME, 0, "too many "
					"modules for the list");
	}
	return boot_cpio_data(c, LIST_PATH + 1, S_IFREG | 0644, list, len);
}

/* The module that mounts the image's filesystem, unless built in:
 * Debian serves ext2 with ext4. */
int boot_add_fs_module(struct modules *m, const char *fs)
{
	char name[16];
	size_t len, i;

	for (i = 0; fs[i] && i < sizeof(name) - 1; i++)
		name[i] = fs[i] >= 'A' && fs[i] <= 'Z' ? fs[i] - 'A' + 'a' : fs[i];
	name[i] = '\0';
	if (!strcmp(name, "ext2") && !find_module_line(m->dep, name, &len) &&
	    !(m->builtin && find_module_line(m->builtin, name, &len)))
		strcpy(name, "ext4");
	return boot_add_module(m, name);
}
