// SPDX-License-Identifier: GPL-2.0
/*
 * tcpiter's and udpiter's BPF programs loaded, attached, pinned and read;
 * and what a program must know of the kernel before it loads: HZ, for
 * the timers, and the width of /proc/net/udp's header.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <linux/capability.h>
#include <linux/magic.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <zlib.h>

#include "core/kit.h"
#include "sock/sockload.h"

/* Iterator programs are tracing programs: the kernel wants CAP_BPF and
 * CAP_PERFMON both, or CAP_SYS_ADMIN. */
#define NEED_PRIVILEGES	"need root, or CAP_BPF and CAP_PERFMON"

/* ---- what the programs need to know of the kernel ---- */

/* CONFIG_HZ from the kernel's config where distributions keep it. */
static __u32 config_hz(void)
{
	char path[128], line[256];
	struct utsname u;
	long hz = 0;
	gzFile f;

	uname(&u);
	snprintf(path, sizeof(path), "/boot/config-%s", u.release);
	f = gzopen(path, "r");	/* reads plain files too */
	if (!f)
		f = gzopen("/proc/config.gz", "r");
	if (!f)
		return 0;
	while (gzgets(f, line, sizeof(line)))
		if (!strncmp(line, "CONFIG_HZ=", 10)) {
			hz = strtol(line + 10, NULL, 10);
			break;
		}
	gzclose(f);
	return hz > 0 ? hz : 0;
}

/*
 * jiffies start at INITIAL_JIFFIES, (u32)(-300 * HZ), and then count HZ
 * a second.  Returns the candidate that fits, or 0 when none fits
 * clearly (near 5 minutes of uptime every HZ gives the same jiffies).
 */
__u32 sock_hz_from_jiffies(__u64 jiffies, __u64 now_ns)
{
	static const __u32 candidates[] = { 100, 250, 300, 1000 };
	__u64 best = ~0ULL, second = ~0ULL;
	__u32 hz = 0;
	size_t i;

	for (i = 0; i < sizeof(candidates) / sizeof(candidates[0]); i++) {
		__u64 h = candidates[i];
		__u64 want = (__u32)-(300 * h) + now_ns / 1000000 * h / 1000;
		__u64 err = want > jiffies ? want - jiffies : jiffies - want;

		if (err < best) {
			second = best;
			best = err;
			hz = h;
		} else if (err < second) {
			second = err;
		}
	}
	return best < hz && best * 8 < second ? hz : 0;
}

static __u32 sampled_hz(void)
{
	char buf[8192], *now, *jif;

	if (read_text("/proc/timer_list", buf, sizeof(buf)) < 0)
		return 0;
	now = strstr(buf, "\nnow at ");
	jif = strstr(buf, "\njiffies: ");
	if (!now || !jif)
		return 0;
	return sock_hz_from_jiffies(strtoull(jif + 10, NULL, 10),
				    strtoull(now + 8, NULL, 10));
}

/*
 * Does /proc/net/udp's header start with three spaces?  From 5.16 (commit
 * 6c25449e1a32, bpf/sockrec.h), and in some stable kernels: older kernels
 * are asked through /proc when it is there.  Not for every kernel: reading
 * /proc/net/udp walks UDP's hash.
 */
static bool udp_header_wide(void)
{
	char head[4] = "";
	struct utsname u;
	int major = 0, minor = 0, fd;
	ssize_t n;

	uname(&u);
	sscanf(u.release, "%d.%d", &major, &minor);
	if (major > 5 || (major == 5 && minor >= 16))
		return true;
	fd = open("/proc/net/udp", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, head, 3);
	close(fd);
	return n == 3 && !strcmp(head, "   ");
}

/* ---- loading ---- */

bool sock_has_cap(int cap)
{
	struct __user_cap_header_struct head = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];

	if (syscall(SYS_capget, &head, data))
		return true;
	return data[CAP_TO_INDEX(cap)].effective & CAP_TO_MASK(cap);
}

int sock_prepare(struct sockiter *it, bool *hz_guessed, struct kit_err *e)
{
	if (!sock_has_cap(CAP_SYS_ADMIN) &&
	    !(sock_has_cap(CAP_BPF) && sock_has_cap(CAP_PERFMON)))
		return kit_fail(e, EXIT_RUNTIME, 0, NEED_PRIVILEGES);
	if (access("/sys/kernel/btf/vmlinux", R_OK))
		return kit_fail(e, EXIT_RUNTIME, 0, "kernel has no BTF at "
				"/sys/kernel/btf/vmlinux: use a kernel built "
				"with CONFIG_DEBUG_INFO_BTF=y");
	it->config.hz = config_hz();
	if (!it->config.hz)
		it->config.hz = sampled_hz();
	*hz_guessed = !it->config.hz;
	if (*hz_guessed)
		it->config.hz = SOCK_FALLBACK_HZ;
	if (!it->proto->tcp_tail)
		it->config.udp_header_wide = udp_header_wide();
	return 0;
}

bool sock_kernel_has_func(const char *func)
{
	struct btf *btf = btf__load_vmlinux_btf();
	bool found;

	if (!btf)
		return true;
	found = btf__find_by_name_kind(btf, func, BTF_KIND_FUNC) > 0;
	btf__free(btf);
	return found;
}

int sock_load_prog(const struct sockiter *it,
		   const struct sockiter_loader *loader,
		   struct sockiter_prog *prog)
{
	/* -v: libbpf's messages, so libbpf loads where it can */
	int err = it->verbose && loader->load_libbpf ? -1 :
		  loader->load_light(&it->config, prog);

	if (err && loader->load_libbpf)
		err = loader->load_libbpf(&it->config, prog);
	return err;
}

bool sock_jit_off(void)
{
	char value[16];

	return read_text(SOCK_JIT_SWITCH, value, sizeof(value)) > 0 &&
	       !strcmp(value, "0");
}

const char *sock_load_hint(bool verbose)
{
	if (sock_jit_off())
		return "; the BPF JIT is off (" SOCK_JIT_ON ")";
	return verbose ? "" : " (-v tells why)";
}

int sock_attach(const struct sockiter *it, const struct sockiter_prog *prog,
		struct kit_err *e)
{
	int link = bpf_link_create(prog->fd, 0, BPF_TRACE_ITER, NULL);

	if (link < 0)
		return kit_fail(e, EXIT_RUNTIME, errno,
				"cannot attach the BPF %s iterator",
				it->proto->name);
	return link;
}

int sock_load(const struct sockiter *it, const struct sockiter_loader *loader,
	      struct sockiter_prog *prog, struct kit_err *e)
{
	const char *name = it->proto->name;
	int err = sock_load_prog(it, loader, prog);

	if (err && !sock_kernel_has_func(it->proto->iter_func))
		return kit_fail(e, EXIT_RUNTIME, 0, "kernel has no BPF %s "
				"iterator (needs Linux 5.9 or later)", name);
	if (err == -EPERM)
		return kit_fail(e, EXIT_RUNTIME, 0, NEED_PRIVILEGES);
	if (err)
		return kit_fail(e, EXIT_RUNTIME, 0, "cannot load the BPF %s "
				"iterator: %s%s", name, strerror(-err),
				sock_load_hint(it->verbose));
	return sock_attach(it, prog, e);
}

/* ---- pin ---- */

static bool on_bpffs(const char *path)
{
	struct statfs st;

	/* f_type is a signed int on 32-bit ARM: the magic as its type. */
	return !statfs(path, &st) &&
	       st.f_type == (__typeof__(st.f_type))BPF_FS_MAGIC;
}

int sock_pin(const struct sockiter *it, int link, struct kit_err *e)
{
	const char *path = it->pin_path;
	char dir[PATH_MAX];
	struct stat st;

	if (!on_bpffs("/sys/fs/bpf") &&
	    mount("bpf", "/sys/fs/bpf", "bpf", 0, NULL))
		return kit_fail(e, EXIT_RUNTIME, errno,
				"cannot mount bpffs at /sys/fs/bpf");
	if (!stat(path, &st) && S_ISDIR(st.st_mode))
		return kit_fail(e, EXIT_RUNTIME, 0, "%s is a directory: pin "
				"takes the path of a new file in it, e.g. "
				"%.*s/%s", path,
				(int)(strlen(path) - (path[strlen(path) - 1] == '/')),
				path, it->proto->name);
	snprintf(dir, sizeof(dir), "%s", path);
	if (stat(dirname(dir), &st) || !S_ISDIR(st.st_mode))
		return kit_fail(e, EXIT_RUNTIME, 0, "no directory %s for %s: "
				"create it (mkdir -p %s)", dir, path, dir);
	if (!on_bpffs(dir))
		return kit_fail(e, EXIT_RUNTIME, 0,
				"%s is not on a bpffs (mount -t bpf bpf DIR, "
				"or use /sys/fs/bpf)", path);
	if (!access(path, F_OK))
		return kit_fail(e, EXIT_RUNTIME, 0,
				"%s exists: remove it first (rm %s)", path,
				path);
	if (bpf_obj_pin(link, path))
		return kit_fail(e, EXIT_RUNTIME, errno,
				"cannot pin at %s", path);
	return 0;
}

/* ---- reading ---- */

long sock_iter_read(int fd, void *buf, size_t len, struct kit_err *e)
{
	ssize_t got;

	do
		got = read(fd, buf, len);
	while (got < 0 && (errno == EINTR || errno == EAGAIN));
	if (got < 0)
		return kit_fail(e, EXIT_RUNTIME, errno, "reading the iterator");
	return got;
}
