// SPDX-License-Identifier: GPL-2.0
/*
 * kmod: the modules a boot needs, with their dependencies in load order
 * as kmod's modprobe resolves them (modules.dep, softdep, alias,
 * builtin), put in the cpio with the list /init loads them from.
 */
#define _GNU_SOURCE
#include <fnmatch.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/kit.h"
#include "boot/initrd.h"
#include "boot/mkcpio.h"

/* ---- mkcpio: modules and their dependencies ---- */

/* A module's name from its path: kernel/fs/ext4/ext4.ko.xz is ext4. */
void module_name(const char *path, size_t len, char *name, size_t size)
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
		module_name(line, *len, key, sizeof(key));
		if (!strcmp(key, name))
			return line;
	}
	return NULL;
}

/* Whether line is in set[n]; added when add is set and it was not. */
static bool in_set(char **set, int *n, char *line, bool add)
{
	int i;

	for (i = 0; i < *n; i++)
		if (set[i] == line)
			return true;
	if (!add)
		return false;
	if (*n == MODULES_MAX)
		die("more than %d modules", MODULES_MAX);
	set[(*n)++] = line;
	return false;
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

static void choose(struct modules *m, const char *line, size_t len,
		   bool soft)
{
	int i = chosen_index(m, line, len);

	if (i >= 0) {
		m->soft[i] &= soft;
		return;
	}
	if (m->count == MODULES_MAX)
		die("more than %d modules", MODULES_MAX);
	m->soft[m->count] = soft;
	m->chosen[m->count++] = strndup(line, len);
}

/* The dependencies a modules.dep line lists; their number. */
static int dep_list(char *line, char **deps, int max)
{
	int n;

	for (deps[0] = line + strcspn(line, ":\n") + 1, n = 0; n < max - 1;
	     n++) {
		deps[n] += strspn(deps[n], " ");
		if (*deps[n] == '\n' || !*deps[n])
			break;
		deps[n + 1] = deps[n] + strcspn(deps[n], " \n");
	}
	return n;
}

/* The modules.dep line of a dependency, or NULL when built in; a
 * missing one is refused unless only a soft dependency needs it. */
static char *dep_line(struct modules *m, const char *path, bool soft)
{
	char name[64], *line;
	size_t len;

	module_name(path, strcspn(path, " \n"), name, sizeof(name));
	line = find_module_line(m->dep, name, &len);
	if (!line && !soft &&
	    !(m->builtin && find_module_line(m->builtin, name, &len)))
		die("no module %s in %s/modules.dep", name, m->dir);
	return line;
}

/*
 * A module that needs itself through modules.dep never loads: each
 * waits for the other.  depmod refuses such a cycle
 * (depmod_report_cycles()); a hand-made file may still hold one.
 */
static void check_cycle(struct modules *m, char *line, char **path,
			int depth)
{
	char *deps[64], chain[1024] = "", name[64];
	int i, n, at = 0;

	if (in_set(m->acyclic, &m->nacyclic, line, false))
		return;
	for (i = 0; i < depth && path[i] != line; i++)
		;
	if (i < depth || depth == 64) {
		for (path[depth] = line; i <= depth; i++) {
			module_name(path[i], strcspn(path[i], ":\n"), name,
				    sizeof(name));
			at += snprintf(chain + at, sizeof(chain) - at, "%s%s",
				       at ? " -> " : "", name);
			if (at >= (int)sizeof(chain))
				break;
		}
		die("%s/modules.dep has a dependency cycle, %s: no order loads "
		    "them; run depmod", m->dir, chain);
	}
	path[depth] = line;
	n = dep_list(line, deps, 64);
	for (i = 0; i < n; i++) {
		char *dline = dep_line(m, deps[i], true);

		if (dline)
			check_cycle(m, dline, path, depth + 1);
	}
	in_set(m->acyclic, &m->nacyclic, line, true);
}

static void load_order(struct modules *m, char *line, bool soft);

/* The module of a modules.dep line, unless soft and visited already:
 * each soft dependency once, as kmod visits it. */
static void soft_module(struct modules *m, char *line, bool soft)
{
	if (!soft || !in_set(m->visited, &m->nvisited, line, false))
		load_order(m, line, soft);
}

/*
 * Every module modprobe would load for word (kmod_module_new_from_lookup()):
 * the module of that name; else each module modules.alias gives it (its
 * patterns as fnmatch() reads them); else nothing when it is built in, by
 * name or by alias.  False when nothing knows word.
 */
static bool add_wanted(struct modules *m, const char *word, bool soft);

/*
 * What "softdep NAME pre: A B post: C" (modules.softdep) names in part
 * (pre: or post:), each through modules.alias: ext4 asks the crypto API
 * for crc32c, which only modprobe would load, and there is none at boot.
 */
static void add_softdeps(struct modules *m, const char *name,
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
			add_wanted(m, word, true);
		}
	}
}

/*
 * The module of a modules.dep line and what it needs: its dependencies
 * (modules.dep lists them in the order modprobe unloads them), then its
 * "pre:" soft dependencies, itself and its "post:" ones, each
 * dependency likewise, as kmod's __kmod_module_get_probe_list() orders
 * them.
 */
static void load_order(struct modules *m, char *line, bool soft)
{
	size_t len = strcspn(line, ":\n");
	char name[64], *deps[64], *path[65], *dline;
	bool first = !in_set(m->visited, &m->nvisited, line, true);
	int n, i;

	check_cycle(m, line, path, 0);
	n = dep_list(line, deps, 64);
	while (n-- > 0) {
		dline = dep_line(m, deps[n], soft);
		i = dline ? chosen_index(m, dline, strcspn(dline, ":\n")) : -1;
		/* In the order already, as hard as asked: done. */
		if (dline && (i < 0 || (m->soft[i] && !soft)))
			load_order(m, dline, soft);
	}
	module_name(line, len, name, sizeof(name));
	if (first)
		add_softdeps(m, name, "pre:");
	choose(m, line, len, soft);
	if (first)
		add_softdeps(m, name, "post:");
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

/* Each module modules.alias gives for name (normalized); how many. */
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
		module_name(word, strlen(word), mod, sizeof(mod));
		dline = find_module_line(m->dep, mod, &len);
		if (!dline)
			die("%s/modules.alias gives %s for %s, which "
			    "modules.dep lacks; run depmod", m->dir, mod, name);
		soft_module(m, dline, soft);
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

static bool add_wanted(struct modules *m, const char *word, bool soft)
{
	char name[256], *line;
	size_t len;

	module_name(word, strlen(word), name, sizeof(name));
	line = find_module_line(m->dep, name, &len);
	if (line) {
		soft_module(m, line, soft);
		return true;
	}
	normalize(word, strlen(word), name, sizeof(name));
	return add_aliased(m, name, soft) ||
	       (m->builtin && find_module_line(m->builtin, name, &len)) ||
	       builtin_alias(m, name);
}

/* A module the boot needs (-m, brd, the image's filesystem): a request
 * of its own, as one modprobe is. */
void add_module(struct modules *m, const char *word)
{
	m->nvisited = 0;
	if (!add_wanted(m, word, false))
		die("no module %s in %s/modules.dep, modules.alias or "
		    "modules.builtin", word, m->dir);
}

void open_modules(struct modules *m, const char *root, const char *kver)
{
	char path[PATH_MAX + 32];

	if (snprintf(m->dir, sizeof(m->dir), "%s/lib/modules/%s",
		     strcmp(root, "/") ? root : "", kver) >= (int)sizeof(m->dir))
		die_usage("-r %s: path too long", root);
	snprintf(path, sizeof(path), "%s/modules.dep", m->dir);
	m->dep = read_whole(path, NULL);
	if (!m->dep)
		die_errno("cannot read %s (give -k KVER of an installed "
			  "kernel, or -r ROOT)", path);
	snprintf(path, sizeof(path), "%s/modules.builtin", m->dir);
	m->builtin = read_whole(path, NULL);
	snprintf(path, sizeof(path), "%s/modules.softdep", m->dir);
	m->softdep = read_whole(path, NULL);
	snprintf(path, sizeof(path), "%s/modules.alias", m->dir);
	m->alias = read_whole(path, NULL);
	snprintf(path, sizeof(path), "%s/modules.builtin.modinfo", m->dir);
	m->builtin_info = read_whole(path, &m->builtin_info_size);
}

/* The modules and the list that /init loads them from. */
void cpio_modules(struct cpio *c, struct modules *m)
{
	char list[16384], name[64], path[2 * PATH_MAX], arcname[128];
	struct unpacked ko;
	size_t len = 0;
	int i;

	cpio_data(c, "kit/lib", S_IFDIR | 0755, NULL, 0);
	for (i = 0; i < m->count; i++) {
		module_name(m->chosen[i], strlen(m->chosen[i]), name,
			    sizeof(name));
		snprintf(path, sizeof(path), "%s/%s", m->dir, m->chosen[i]);
		snprintf(arcname, sizeof(arcname), "kit/lib/%s.ko", name);
		unpack_module(path, &ko);
		cpio_data(c, arcname, S_IFREG | 0644, ko.data, ko.size);
		free(ko.data);
		len += snprintf(list + len, sizeof(list) - len, "%s /%s%s\n",
				name, arcname, m->soft[i] ? " soft" : "");
		if (len >= sizeof(list))
			die("too many modules for the list");
	}
	cpio_data(c, LIST_PATH + 1, S_IFREG | 0644, list, len);
}

/* The module that mounts the image's filesystem, unless built in:
 * Debian serves ext2 with ext4. */
void add_fs_module(struct modules *m, const char *fs)
{
	char name[16];
	size_t len, i;

	for (i = 0; fs[i] && i < sizeof(name) - 1; i++)
		name[i] = fs[i] >= 'A' && fs[i] <= 'Z' ? fs[i] - 'A' + 'a' : fs[i];
	name[i] = '\0';
	if (!strcmp(name, "ext2") && !find_module_line(m->dep, name, &len) &&
	    !(m->builtin && find_module_line(m->builtin, name, &len)))
		strcpy(name, "ext4");
	add_module(m, name);
}
