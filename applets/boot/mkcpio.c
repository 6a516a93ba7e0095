// SPDX-License-Identifier: GPL-2.0
/*
 * initrd mkcpio: the newc cpio that boots an old initrd (see initrd.c):
 * /init (kit), /dev/console, the modules the boot loads, uncompressed and
 * in dependency order with the list /init reads, and the image if given.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <lzma.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

#include "core/kit.h"
#include "boot/initrd.h"
#include "rd/rd.h"
/* ---- mkcpio: a newc archive ---- */

#define CPIO_FILE_MAX	0xffffffffUL	/* c_filesize: 8 hex digits */

struct cpio {
	int fd;
	const char *path;
	unsigned long ino;
	unsigned long long offset;
};

static void cpio_write(struct cpio *c, const void *buf, size_t len)
{
	static const char zeros[4];

	if (write_all(c->fd, buf, len) < 0)
		die_errno("write error on %s", c->path);
	c->offset += len;
	if (c->offset % 4 && write_all(c->fd, zeros, 4 - c->offset % 4) < 0)
		die_errno("write error on %s", c->path);
	c->offset = (c->offset + 3) & ~3ULL;
}

/* One header and name; the data follows, padded to 4 bytes. */
static void cpio_header(struct cpio *c, const char *name, unsigned int mode,
			dev_t rdev, unsigned long size)
{
	char hdr[111 + PATH_MAX];
	int len;

	if (size > CPIO_FILE_MAX)
		die("%s: %lu bytes is more than a newc cpio can hold", name,
		    size);
	len = snprintf(hdr, sizeof(hdr),
		       "070701%08lX%08X%08X%08X%08X%08X%08lX%08X%08X%08X"
		       "%08X%08zX%08X%s", ++c->ino, mode, 0, 0,
		       S_ISDIR(mode) ? 2 : 1, 0, size, 0, 0, major(rdev),
		       minor(rdev), strlen(name) + 1, 0, name);
	cpio_write(c, hdr, len + 1);
}

static void cpio_data(struct cpio *c, const char *name, unsigned int mode,
		      const void *data, size_t size)
{
	cpio_header(c, name, mode, 0, size);
	cpio_write(c, data, size);
}

/* A file mkcpio copies (/init, IMAGE), open, and never a directory. */
static int open_regular(const char *path, struct stat *st)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || fstat(fd, st))
		die_errno("cannot read %s", path);
	if (S_ISDIR(st->st_mode))
		die("%s is a directory; give the RAM disk image's file", path);
	if (!S_ISREG(st->st_mode))
		die("%s is not a regular file; give the RAM disk image's file",
		    path);
	return fd;
}

/* A file copied whole, under a name of its own. */
static void cpio_file(struct cpio *c, const char *name, const char *path)
{
	char buf[65536];
	struct stat st;
	ssize_t n;
	off_t left;
	int fd = open_regular(path, &st);

	cpio_header(c, name, S_IFREG | (st.st_mode & 0755), 0, st.st_size);
	for (left = st.st_size; left > 0; left -= n) {
		n = read(fd, buf, left < (off_t)sizeof(buf) ? (size_t)left : sizeof(buf));
		if (n <= 0)
			die("%s changed while it was read", path);
		if (write_all(c->fd, buf, n) < 0)
			die_errno("write error on %s", c->path);
		c->offset += n;
	}
	close(fd);
	cpio_write(c, "", 0);
}

/* ---- mkcpio: modules and their dependencies ---- */

#define MODULES_MAX	256

struct modules {
	char dir[PATH_MAX];	/* ROOT/lib/modules/KVER */
	char *dep, *builtin;	/* modules.dep and modules.builtin, whole */
	char *softdep, *alias;	/* modules.softdep and modules.alias */
	/* modules.builtin.modinfo, whole: NAME.KEY=VALUE, NUL-separated */
	char *builtin_info;
	size_t builtin_info_size;
	char *chosen[MODULES_MAX];	/* paths relative to dir, in order */
	bool soft[MODULES_MAX];	/* only a soft dependency: may fail */
	int count;
	/* modules.dep lines: those this request visited (kmod's
	 * mod->visited), and those known to need no module in a cycle. */
	char *visited[MODULES_MAX], *acyclic[MODULES_MAX];
	int nvisited, nacyclic;
};

static char *read_whole(const char *path, size_t *size)
{
	struct stat st;
	char *buf;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st))
		return NULL;
	buf = malloc(st.st_size + 1);
	if (!buf || read(fd, buf, st.st_size) != st.st_size)
		die("cannot read %s", path);
	buf[st.st_size] = '\0';
	close(fd);
	if (size)
		*size = st.st_size;
	return buf;
}

/* A module's name from its path: kernel/fs/ext4/ext4.ko.xz is ext4. */
static void module_name(const char *path, size_t len, char *name, size_t size)
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
static void add_module(struct modules *m, const char *word)
{
	m->nvisited = 0;
	if (!add_wanted(m, word, false))
		die("no module %s in %s/modules.dep, modules.alias or "
		    "modules.builtin", word, m->dir);
}

/* ---- mkcpio: a module as the kernel's finit_module() takes it ---- */

/* A module unpacked so far, and the room for it. */
struct unpacked {
	unsigned char *data;
	size_t size, cap;
};

/* More room for the output, doubling: false when out of memory, or
 * when a newc entry could not hold it (a bomb, or damage). */
static bool more_room(struct unpacked *u, size_t in_size)
{
	size_t cap = u->cap ? 2 * u->cap : 4 * in_size + 4096;
	unsigned char *data;

	if (u->cap >= CPIO_FILE_MAX)
		return false;
	data = realloc(u->data, cap);
	if (!data)
		return false;
	u->data = data;
	u->cap = cap;
	return true;
}

/* Where the output goes on, with room after it; NULL when no more room
 * is had. */
static unsigned char *out_room(struct unpacked *u, size_t in_size)
{
	if (u->size == u->cap && !more_room(u, in_size))
		return NULL;
	return u->data + u->size;
}

/*
 * Each decoder runs until its stream ends (UNPACKED), the input ends
 * first or is wrong (DAMAGED), or no more room is had (TOO_BIG).  Each
 * reads one stream, as the kernel's module_decompress() does.
 */
enum unpack { UNPACKED, DAMAGED, TOO_BIG };

static enum unpack unpack_xz(const unsigned char *in, size_t size,
			     struct unpacked *u)
{
	lzma_stream xz = LZMA_STREAM_INIT;
	lzma_ret ret = LZMA_OK;

	if (lzma_stream_decoder(&xz, UINT64_MAX, 0) != LZMA_OK)
		return TOO_BIG;
	xz.next_in = in, xz.avail_in = size;
	while (ret == LZMA_OK && (xz.next_out = out_room(u, size))) {
		xz.avail_out = u->cap - u->size;
		ret = lzma_code(&xz, LZMA_FINISH);
		u->size = u->cap - xz.avail_out;
	}
	lzma_end(&xz);
	return ret == LZMA_STREAM_END ? UNPACKED :
	       ret == LZMA_OK ? TOO_BIG : DAMAGED;
}

static enum unpack unpack_gz(const unsigned char *in, size_t size,
			     struct unpacked *u)
{
	z_stream z = { .next_in = (unsigned char *)in, .avail_in = size };
	int ret = Z_OK;

	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
		return TOO_BIG;
	while (ret == Z_OK && (z.next_out = out_room(u, size))) {
		z.avail_out = u->cap - u->size;
		ret = inflate(&z, Z_NO_FLUSH);
		u->size = u->cap - z.avail_out;
		/* No progress with room left: the input ended early. */
		if (ret == Z_BUF_ERROR && z.avail_out)
			break;
		if (ret == Z_BUF_ERROR)
			ret = Z_OK;
	}
	inflateEnd(&z);
	return ret == Z_STREAM_END ? UNPACKED :
	       ret == Z_OK ? TOO_BIG : DAMAGED;
}

static enum unpack unpack_zst(const unsigned char *in, size_t size,
			      struct unpacked *u)
{
	ZSTD_DCtx *dctx = ZSTD_createDCtx();
	ZSTD_inBuffer zin = { in, size, 0 };
	ZSTD_outBuffer zout;
	size_t ret = 1;
	enum unpack result = TOO_BIG;

	while (dctx && ret && out_room(u, size)) {
		zout = (ZSTD_outBuffer){ u->data, u->cap, u->size };
		ret = ZSTD_decompressStream(dctx, &zout, &zin);
		u->size = zout.pos;
		/* An error, or no more input and room left: damage. */
		if (ZSTD_isError(ret) ||
		    (ret && zin.pos == zin.size && zout.pos < zout.size)) {
			result = DAMAGED;
			break;
		}
	}
	if (dctx && !ret)
		result = UNPACKED;
	ZSTD_freeDCtx(dctx);
	return result;
}

/*
 * in, the file path names, as the kernel's finit_module() takes it:
 * unpacked as its suffix says, and an ELF file (what load_module()
 * checks first, elf_validity_cache_copy()), never empty.  NULL, with
 * *u the module, or why not.
 */
static const char *unpack_module_data(const char *path,
				      const unsigned char *in, size_t size,
				      struct unpacked *u)
{
	enum unpack ret = UNPACKED;

	*u = (struct unpacked){ NULL, 0, 0 };
	if (!size)
		return "is damaged: it is empty";
	if (strstr(path, ".ko.xz"))
		ret = unpack_xz(in, size, u);
	else if (strstr(path, ".ko.zst"))
		ret = unpack_zst(in, size, u);
	else if (strstr(path, ".ko.gz"))
		ret = unpack_gz(in, size, u);
	else if (strstr(path, ".ko."))
		return "uses a compression kit does not know";
	else if ((u->data = malloc(size + 1)))
		memcpy(u->data, in, u->size = u->cap = size);
	else
		ret = TOO_BIG;
	if (ret == DAMAGED)
		return "is damaged: it does not decompress";
	if (ret == TOO_BIG)
		return "is too big: out of memory, or more than a newc "
		       "cpio holds";
	if (u->size < SELFMAG || memcmp(u->data, ELFMAG, SELFMAG))
		return "is damaged: not an ELF module";
	return NULL;
}

static void unpack_module(const char *path, struct unpacked *u)
{
	size_t in_size;
	unsigned char *in = (unsigned char *)read_whole(path, &in_size);
	const char *why;

	if (!in)
		die_errno("cannot read %s", path);
	why = unpack_module_data(path, in, in_size, u);
	if (why)
		die("%s %s; reinstall its package", path, why);
	free(in);
}

static void open_modules(struct modules *m, const char *root,
			 const char *kver)
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
static void cpio_modules(struct cpio *c, struct modules *m)
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

/* The filesystem in IMAGE, found as the kernel finds it, inside its
 * compression too (rdload -i's engine). */
static const char *image_fs(const char *path, unsigned long start)
{
	char *volumes[] = { (char *)path };
	struct rd_job job = { .volumes = volumes, .count = 1,
			      .start = (uint64_t)start * RD_BLOCK };
	struct stat st;

	close(open_regular(path, &st));
	if (rd_identify(&job))
		die("%s: %s; give -s START if it starts at a later block (as "
		    "ramdisk_start= will)", path, job.error);
	if (!job.fs)
		die("%s: the kernel would find no filesystem in it; name its "
		    "module with -m", path);
	return job.fs;
}

/* The module that mounts the image's filesystem, unless built in:
 * Debian serves ext2 with ext4. */
static void add_fs_module(struct modules *m, const char *fs)
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

/* INT, TERM, HUP: the partial file goes, then the signal does what it
 * would have done. */
static void remove_partial_on_signal(int sig)
{
	remove_partial();
	raise(sig);
}

static const int partial_signals[] = { SIGINT, SIGTERM, SIGHUP };
#define PARTIAL_SIGNALS	\
	(sizeof(partial_signals) / sizeof(partial_signals[0]))

static void block_partial_signals(int how)
{
	sigset_t set;
	size_t i;

	sigemptyset(&set);
	for (i = 0; i < PARTIAL_SIGNALS; i++)
		sigaddset(&set, partial_signals[i]);
	sigprocmask(how, &set, NULL);
}

/* The handler, for each of those signals not ignored (nohup). */
static void catch_partial_signals(void)
{
	struct sigaction sa = { .sa_handler = remove_partial_on_signal,
				.sa_flags = SA_RESETHAND }, old;
	size_t i;

	for (i = 0; i < PARTIAL_SIGNALS; i++)
		if (!sigaction(partial_signals[i], NULL, &old) &&
		    old.sa_handler != SIG_IGN)
			sigaction(partial_signals[i], &sa, NULL);
}

/*
 * The partial file beside path, with the mode OUT will have: an old
 * OUT's mode and owner (root can keep them), else what open(O_CREAT,
 * 0666) gives under the umask.
 */
static int open_partial(const char *path, const struct stat *old)
{
	mode_t mask = umask(0);
	int fd;

	umask(mask);
	if (snprintf(partial, sizeof(partial), "%s.XXXXXX", path) >=
	    (int)sizeof(partial))
		die_usage("-o %s: path too long", path);
	atexit(remove_partial);
	catch_partial_signals();
	/* The name is whole before a handler may unlink it. */
	block_partial_signals(SIG_BLOCK);
	fd = mkostemp(partial, O_CLOEXEC);
	if (fd < 0)
		partial[0] = '\0';
	block_partial_signals(SIG_UNBLOCK);
	if (fd < 0)
		die_errno("cannot create %s", path);
	if (old && !geteuid() && fchown(fd, old->st_uid, old->st_gid))
		die_errno("cannot give %s the owner of %s", partial, path);
	if (fchmod(fd, old ? old->st_mode & 07777 : 0666 & ~mask))
		die_errno("cannot set the mode of %s", partial);
	return fd;
}

/*
 * OUT as -o names it: a regular file (through symlinks too: the link
 * stays) or a new name gets the partial file; a character device or a
 * pipe (/dev/stdout) is written in place; nothing else, and never IMAGE
 * itself.  Checked before the archive is built.
 */
static int open_output(const char *out, const char *image, char **target)
{
	struct stat st, img;
	int fd;

	*target = NULL;
	if (out[strlen(out) - 1] == '/')
		die("-o %s names a directory; give the archive's file name, "
		    "e.g. -o %sinitrd.cpio", out, out);
	if (stat(out, &st)) {
		if (errno != ENOENT)
			die_errno("cannot write %s", out);
		if (!lstat(out, &st))
			die("-o %s is a symlink to nothing; give the archive's "
			    "file name", out);
		*target = strdup(out);
		return open_partial(out, NULL);
	}
	if (S_ISDIR(st.st_mode))
		die("-o %s is a directory; give the archive's file name, e.g. "
		    "-o %s/initrd.cpio", out, out);
	if (image && !stat(image, &img) && img.st_dev == st.st_dev &&
	    img.st_ino == st.st_ino)
		die("-o %s is IMAGE itself: write the archive elsewhere", out);
	if (S_ISREG(st.st_mode)) {
		*target = realpath(out, NULL);
		if (!*target)
			die_errno("cannot resolve %s", out);
		return open_partial(*target, &st);
	}
	if (!S_ISCHR(st.st_mode) && !S_ISFIFO(st.st_mode))
		die("-o %s is neither a file, a pipe nor a character device: "
		    "mkcpio does not write over it", out);
	fd = open(out, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		die_errno("cannot write %s", out);
	if (isatty(fd))
		die_usage("the cpio is binary: -o %s is a terminal", out);
	return fd;
}

/* A regular OUT's partial file, whole, takes its place. */
static void close_output(struct cpio *c, const char *target)
{
	if (close(c->fd) || (target && rename(partial, target)))
		die_errno("write error on %s", c->path);
	partial[0] = '\0';
}

int mkcpio_main(int argc, char **argv)
{
	struct modules m = { .count = 0 };
	struct cpio c = { .fd = STDOUT_FILENO, .path = "stdout" };
	const char *root = "/", *kver = NULL, *out = NULL, *mods[64];
	char *target = NULL;
	struct utsname u;
	int opt, nmods = 0, i;
	unsigned long start = 0;

	while ((opt = kit_getopt(argc, argv, "r:k:m:o:s:", NULL)) != -1) {
		switch (opt) {
		case 's':
			if (parse_ulong(optarg, 0, 0, INT_MAX, &start))
				die_usage("-s takes a block number (1 KiB "
					  "blocks), got %s", optarg);
			break;
		case 'r':
			root = optarg;
			break;
		case 'k':
			kver = optarg;
			break;
		case 'm':
			if (nmods == 64)
				die_usage("more than 64 -m MODULE");
			mods[nmods++] = optarg;
			break;
		case 'o':
			out = optarg;
			break;
		}
	}
	if (argc - optind > 1)
		die_usage("mkcpio takes one IMAGE at most, got '%s'",
			  argv[optind + 1]);
	if (!kver) {
		uname(&u);
		kver = u.release;
	}
	open_modules(&m, root, kver);
	add_module(&m, "brd");
	if (optind < argc)
		add_fs_module(&m, image_fs(argv[optind], start));
	for (i = 0; i < nmods; i++)
		add_module(&m, mods[i]);
	if (out) {
		c.path = out;
		c.fd = open_output(out, optind < argc ? argv[optind] : NULL,
				   &target);
	} else if (isatty(STDOUT_FILENO)) {
		die_usage("the cpio is binary: give -o OUT or redirect stdout");
	}
	cpio_data(&c, "dev", S_IFDIR | 0755, NULL, 0);
	cpio_header(&c, "dev/console", S_IFCHR | 0600, makedev(5, 1), 0);
	cpio_data(&c, "kit", S_IFDIR | 0755, NULL, 0);
	cpio_file(&c, "init", "/proc/self/exe");
	cpio_modules(&c, &m);
	if (optind < argc)
		cpio_file(&c, IMAGE_PATH + 1, argv[optind]);
	cpio_data(&c, "TRAILER!!!", 0, NULL, 0);
	if (out)
		close_output(&c, target);
	return 0;
}
