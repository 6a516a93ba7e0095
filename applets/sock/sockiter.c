// SPDX-License-Identifier: GPL-2.0
/*
 * sockiter: the protocol-independent half of tcpiter and udpiter.
 *
 * The BPF program (bpf/sockiter.bpf.h) filters in the kernel and writes
 * one fixed-size struct sock_rec per socket, followed by /proc's hashed
 * pointer as text ("%pK": only the kernel can hash it).  Userspace turns
 * the records into /proc's text with hand-written hex and decimal
 * conversion and one write: cheaper than formatting each field with
 * bpf_seq_printf().  A pinned iterator instead formats /proc's text in
 * the kernel (SOCK_MODE_TEXT), since any program may read it.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dirent.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <linux/capability.h>
#include <linux/magic.h>
#include <linux/nsfs.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "core/kit.h"
#include "sock/sockiter.h"

/* Iterator programs are tracing programs: the kernel wants CAP_BPF and
 * CAP_PERFMON both, or CAP_SYS_ADMIN. */
#define NEED_PRIVILEGES	"need root, or CAP_BPF and CAP_PERFMON"

/* ---- the command line ---- */

static int parse_state(const char *name, __u32 *states)
{
	int i;

	if (!strcmp(name, "all")) {
		*states |= SOCK_STATES_TCP;
		return 0;
	}
	if (!strcmp(name, "connected")) {
		*states |= SOCK_STATES_TCP &
			   ~(1U << SOCK_ST_LISTEN | 1U << SOCK_ST_CLOSE);
		return 0;
	}
	/* ss's own spellings of two of them */
	if (!strcmp(name, "listening"))
		name = "listen";
	else if (!strcmp(name, "closed"))
		name = "close";
	for (i = 1; i < SOCK_TCP_STATES; i++) {
		if (sock_states[i].name && !strcmp(name, sock_states[i].name)) {
			*states |= 1U << i;
			return 0;
		}
	}
	return -1;
}

/* ADDR[/LEN] as an IPv6 prefix (IPv4 as ::ffff:a.b.c.d), net masked.
 * Returns 4 or 6, the family it was written in, or -1. */
static int parse_prefix(const char *s, __u32 net[4], __u32 mask[4])
{
	unsigned char addr[16] = { 0 }, bits[16];
	const char *slash = strchr(s, '/');
	size_t n = slash ? (size_t)(slash - s) : strlen(s);
	char text[INET6_ADDRSTRLEN];
	unsigned long len, max;
	int i;

	if (n >= sizeof(text))
		return -1;
	memcpy(text, s, n);
	text[n] = '\0';
	if (inet_pton(AF_INET, text, addr + 12) == 1) {
		addr[10] = addr[11] = 0xff;
		max = 32;
	} else if (inet_pton(AF_INET6, text, addr) == 1) {
		max = 128;
	} else {
		return -1;
	}
	len = max;
	if (slash && parse_ulong(slash + 1, 10, 0, max, &len))
		return -1;
	len += 128 - max;
	for (i = 0; i < 16; i++) {
		long b = (long)len - 8 * i;

		bits[i] = b >= 8 ? 0xff : b <= 0 ? 0 : 0xff << (8 - b);
		addr[i] &= bits[i];
	}
	memcpy(net, addr, 16);
	memcpy(mask, bits, 16);
	return max == 32 ? 4 : 6;
}

static __s32 parse_port(const char *opt, const char *s)
{
	unsigned long port;

	if (parse_ulong(s, 10, 0, 65535, &port))
		die_usage("%s takes a port number 0-65535, got '%s'", opt, s);
	return port;
}

static const char short_opts[] = "46tjcHpinvs:N:";
static const struct option long_opts[] = {
	{ "all", no_argument, NULL, 'L' },
	{ "sport", required_argument, NULL, 'S' },
	{ "dport", required_argument, NULL, 'D' },
	{ "src", required_argument, NULL, 'a' },
	{ "dst", required_argument, NULL, 'b' },
	{ "uid", required_argument, NULL, 'u' },
	{ "all-netns", no_argument, NULL, 'A' },
	{ NULL, 0, NULL, 0 },
};

/* Returns whether the prefix was written in IPv6. */
static bool prefix_option(const char *opt, const char *arg, __u32 net[4],
			  __u32 mask[4])
{
	int family = parse_prefix(arg, net, mask);

	if (family < 0)
		die_usage("%s takes ADDR[/LEN], got '%s'", opt, arg);
	return family == 6;
}

static void parse_filter(struct sockiter_filter *f, int opt, const char *arg)
{
	unsigned long uid;

	switch (opt) {
	case 's':
		if (parse_state(arg, &f->states))
			die_usage("unknown state '%s' (try established, listen, "
				  "time-wait, ..., connected, all)", arg);
		break;
	case 'S':
		f->sport = parse_port("--sport", arg);
		break;
	case 'D':
		f->dport = parse_port("--dport", arg);
		break;
	case 'a':
		f->src_v6 = prefix_option("--src", arg, f->src, f->src_mask);
		break;
	case 'b':
		f->dst_v6 = prefix_option("--dst", arg, f->dst, f->dst_mask);
		break;
	case 'u':
		if (parse_ulong(arg, 10, 0, 0xffffffffUL, &uid))
			die_usage("--uid takes a number, got '%s'", arg);
		f->uid = uid;
		break;
	}
}

static int print_libbpf(enum libbpf_print_level level, const char *fmt,
			va_list ap)
{
	(void)level;
	return vfprintf(stderr, fmt, ap);
}

static void check_pin_args(struct sockiter *it, int argc, char **argv)
{
	if (optind != argc - 1)
		die_usage("pin takes one PATH");
	it->pin_path = argv[optind];
	if (it->output != SOCK_OUT_PROC || it->no_header || it->netns ||
	    it->all_netns)
		die_usage("pin takes only -4/-6, filters and PATH");
	if (it->config.filter.families == 3)
		die_usage("pin makes one /proc table: add -4 (/proc/net/%s) "
			  "or -6 (/proc/net/%s6)", it->proto->name,
			  it->proto->name);
	it->config.mode = SOCK_MODE_TEXT;
}

/* -p and -i add to a row: only -t's and -j's have room, not /proc's. */
static void check_row_option(const struct sockiter *it, bool pin,
			     const char *opt, const char *what)
{
	if (pin || (it->output != SOCK_OUT_TABLE &&
		    it->output != SOCK_OUT_JSON))
		die_usage("%s goes with -t or -j: /proc's table has no column "
			  "for %s", opt, what);
}

/*
 * Can the filter leave out any socket of the protocol?  Not when it has
 * both families, no address prefix (an IPv4 one leaves out IPv6 sockets
 * that are not IPv4-mapped, an IPv6 one, even ::/0, every IPv4 socket),
 * no port, no owner, and no state or every state of the protocol.
 */
static bool has_filter(const struct sockiter *it)
{
	const struct sockiter_filter *f = &it->config.filter;
	__u32 all = it->proto->count_states;
	int i;

	for (i = 0; i < 4; i++)
		if (f->src_mask[i] || f->dst_mask[i])
			return true;
	return f->src_v6 || f->dst_v6 || f->families != 3 ||
	       (f->states && (f->states & all) != all) || f->sport >= 0 ||
	       f->dport >= 0 || f->uid >= 0;
}

/* kill [-n] [--all] FILTER...: -t's rows of the sockets closed */
static void check_kill_args(struct sockiter *it, bool all)
{
	if (it->output != SOCK_OUT_PROC && it->output != SOCK_OUT_TABLE)
		die_usage("kill lists the sockets it closes as -t does: no -j "
			  "or -c");
	if (it->all_netns)
		die_usage("kill works in one network namespace: choose it with "
			  "-N NETNS");
	if (!all && !has_filter(it))
		die_usage("kill with no filter closes every %s socket: add "
			  "filters, or --all if that is what you mean",
			  it->proto->name);
	it->output = SOCK_OUT_TABLE;
	it->config.want_kill = !it->dry_run;
}

/* -i: TCP's, and a form with room for it */
static void check_info(struct sockiter *it, bool pin)
{
	if (!it->info)
		return;
	if (!it->proto->tcp_tail)
		die_usage("-i shows TCP's internals: UDP sockets have none "
			  "(tcpiter -i)");
	check_row_option(it, pin, "-i", "TCP's internals");
	it->config.want_info = true;
}

void sockiter_parse(struct sockiter *it, const struct sockiter_proto *proto,
		    int argc, char **argv)
{
	struct sockiter_filter *f = &it->config.filter;
	bool pin = argc > 1 && !strcmp(argv[1], "pin");
	bool all = false;
	int opt, families = 0;

	memset(it, 0, sizeof(*it));
	it->proto = proto;
	it->kill = argc > 1 && !strcmp(argv[1], "kill");
	f->sport = f->dport = -1;
	f->uid = -1;
	if (pin || it->kill)
		argc--, argv++;
	optind = 1;
	while ((opt = kit_getopt(argc, argv, short_opts, long_opts)) != -1) {
		switch (opt) {
		case '4':
			families |= 1 << SOCK_FAMILY_V4;
			break;
		case '6':
			families |= 1 << SOCK_FAMILY_V6;
			break;
		case 't':
			it->output = SOCK_OUT_TABLE;
			break;
		case 'j':
			it->output = SOCK_OUT_JSON;
			break;
		case 'c':
			it->output = SOCK_OUT_COUNT;
			break;
		case 'H':
			it->no_header = true;
			break;
		case 'p':
			it->owners = true;
			break;
		case 'i':
			it->info = true;
			break;
		case 'n':
			it->dry_run = true;
			break;
		case 'L':
			all = true;
			break;
		case 'v':
			it->verbose = true;
			break;
		case 'N':
			it->netns = optarg;
			break;
		case 'A':
			it->all_netns = true;
			break;
		case 's': case 'S': case 'D': case 'a': case 'b': case 'u':
			parse_filter(f, opt, optarg);
			break;
		}
	}
	opt_exclusive("tjc");
	opt_exclusive("NA");
	if (it->netns && !*it->netns)
		die_usage("-N takes a network namespace: a name in /run/netns, "
			  "a path or pid:PID");
	f->families = families ? families : 3;
	if ((it->dry_run || all) && !it->kill)
		die_usage("%s goes with kill", it->dry_run ? "-n" : "--all");
	if (it->kill)
		check_kill_args(it, all);
	if (it->owners)
		check_row_option(it, pin, "-p", "processes");
	check_info(it, pin);
	if (pin)
		check_pin_args(it, argc, argv);
	else if (optind < argc)
		die_usage("unexpected argument '%s'", argv[optind]);
	if (it->output == SOCK_OUT_COUNT)
		it->config.mode = SOCK_MODE_COUNT;
	it->config.listeners_only = it->config.mode == SOCK_MODE_RECORDS &&
				    it->proto->tcp_tail && !it->kill &&
				    f->states == 1U << SOCK_ST_LISTEN;
	it->config.want_pointer = it->output == SOCK_OUT_PROC ||
				  it->output == SOCK_OUT_JSON;
	libbpf_set_print(it->verbose ? print_libbpf : NULL);
}

/* ---- loading ---- */

/* Is cap effective?  Yes when capget() cannot tell. */
static bool has_cap(int cap)
{
	struct __user_cap_header_struct head = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];

	if (syscall(SYS_capget, &head, data))
		return true;
	return data[CAP_TO_INDEX(cap)].effective & CAP_TO_MASK(cap);
}

static void check_privileges(void)
{
	if (!has_cap(CAP_SYS_ADMIN) &&
	    !(has_cap(CAP_BPF) && has_cap(CAP_PERFMON)))
		die(NEED_PRIVILEGES);
}

/* Why did loading fail?  A kernel without the iterator target. */
static bool iterator_exists(const char *func)
{
	struct btf *btf = btf__load_vmlinux_btf();
	bool found;

	if (!btf)
		return true;
	found = btf__find_by_name_kind(btf, func, BTF_KIND_FUNC) > 0;
	btf__free(btf);
	return found;
}

/* 0 or a negative errno */
static int load_prog(const struct sockiter *it,
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

static int attach(const struct sockiter *it, const struct sockiter_prog *prog)
{
	int link = bpf_link_create(prog->fd, 0, BPF_TRACE_ITER, NULL);

	if (link < 0)
		die_errno("cannot attach the BPF %s iterator", it->proto->name);
	return link;
}

/* What every load needs first. */
static void prepare(struct sockiter *it)
{
	check_privileges();
	if (access("/sys/kernel/btf/vmlinux", R_OK))
		die("kernel has no BTF at /sys/kernel/btf/vmlinux: use a kernel built with CONFIG_DEBUG_INFO_BTF=y");
	it->config.hz = sockiter_kernel_hz(it->verbose);
	if (!it->proto->tcp_tail)
		it->config.udp_header_wide = sockiter_udp_header_wide();
}

/* Returns the iterator's link. */
static int load(struct sockiter *it, const struct sockiter_loader *loader,
		struct sockiter_prog *prog)
{
	const char *name = it->proto->name;
	int err = load_prog(it, loader, prog);

	if (err && !iterator_exists(it->proto->iter_func))
		die("kernel has no BPF %s iterator (needs Linux 5.9 or later)",
		    name);
	if (err == -EPERM)
		die(NEED_PRIVILEGES);
	if (err)
		die("cannot load the BPF %s iterator: %s%s", name,
		    strerror(-err), it->verbose ? "" : " (-v tells why)");
	return attach(it, prog);
}

/* ---- reading ---- */

/* The largest record a program writes: an IPv6 TCP socket's, with -i's
 * info and kill's tail. */
#define SOCK_REC_MAX	(SOCK_REC_ADDRS + SOCK_REC_ADDR_SIZE(SOCK_FAMILY_V6) + \
			 sizeof(struct sock_info) + sizeof(struct sock_kill))

/*
 * One walk as it is read.  Rows of `stream_family` are printed as they
 * come; the others are held as the program wrote them and printed after
 * the walk: IPv6 rows wait for the IPv4 table (/proc's order, `cat tcp
 * tcp6`), and UDP's rows all wait to be sorted (below).
 */
struct walk {
	const struct sockiter *it;
	const char *netns;		/* --all-netns: the JSON field */
	int stream_family;		/* -1: none */
	bool ended;			/* the end of the walk (or of the
					 * listeners) seen */
	size_t reads;			/* read()s that returned rows */
	char *held;			/* records and pointers */
	size_t held_len, held_cap;
	/* family << 63 | sl << 32 | offset in held: /proc's order, then
	 * the walk's */
	__u64 *rows;
	size_t n, rows_cap;
	/* want_pointer: the records read that wait for their pointers,
	 * which come in batches after them */
	unsigned int waiting;
	size_t waiting_size[SOCK_PTR_BATCH];
	char waiting_rec[SOCK_PTR_BATCH][SOCK_REC_MAX];
};

void *sockiter_grow(void *v, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return v;
	*cap = need > 2 * *cap ? need : 2 * *cap;
	v = realloc(v, *cap * size);
	if (!v)
		die("out of memory");
	return v;
}

/* Does the record at rec carry a struct sock_info (-i, full sockets)? */
static bool has_info(const struct walk *walk, const char *rec)
{
	return walk->it->config.want_info &&
	       rec[offsetof(struct sock_rec, kind)] == SOCK_KIND_FULL;
}

/* The row from a record in its written form (sockrec.h) and its pointer. */
static void print_written(struct walk *walk, const char *rec, size_t size,
			  const char *ptr, size_t ptr_len)
{
	size_t fields = SOCK_REC_FIELDS(walk->it->proto->tcp_tail);
	static struct sockiter_row w;

	memset(&w.r, 0, sizeof(w.r));
	/* from the end: the kill tail, then the info */
	if (walk->it->config.want_kill) {
		size -= sizeof(w.kill);
		memcpy(&w.kill, rec + size, sizeof(w.kill));
	}
	if (has_info(walk, rec)) {
		size -= sizeof(w.info);
		memcpy(&w.info, rec + size, sizeof(w.info));
	}
	memcpy(&w.r, rec, fields);
	memcpy(w.r.src, rec + fields, size - fields);
	if (w.r.family == SOCK_FAMILY_V4) {
		w.r.dst[0] = w.r.src[1];
		w.r.src[1] = 0;
	}
	if (walk->it->kill && !sockiter_kill_row(walk->it, &w))
		return;
	w.ptr_len = ptr_len < SOCK_PTR_MAX ? ptr_len : SOCK_PTR_MAX;
	memcpy(w.ptr, ptr, w.ptr_len);
	sockiter_print_row(walk->it, &w, walk->netns);
}

/* The size of the record at rec, in its written form. */
static size_t written_size(const struct walk *walk, const char *rec)
{
	__u8 family = rec[offsetof(struct sock_rec, family)];

	return SOCK_REC_FIELDS(walk->it->proto->tcp_tail) +
	       SOCK_REC_ADDR_SIZE(family) +
	       (has_info(walk, rec) ? sizeof(struct sock_info) : 0) +
	       (walk->it->config.want_kill ? sizeof(struct sock_kill) : 0);
}

/* The record, and its pointer ended by a newline (want_pointer), kept
 * to be printed after the walk. */
static void hold(struct walk *walk, const char *rec, size_t size,
		 const char *ptr, size_t ptr_len)
{
	bool pointer = walk->it->config.want_pointer;
	size_t len = size + (pointer ? ptr_len + 1 : 0);
	struct sock_rec head;
	char *p;

	if (walk->held_len > UINT32_MAX)	/* tens of millions of rows */
		die("too many rows to hold for sorting");
	walk->held = sockiter_grow(walk->held, &walk->held_cap,
				   walk->held_len + len, 1);
	walk->rows = sockiter_grow(walk->rows, &walk->rows_cap, walk->n + 1,
				   sizeof(*walk->rows));
	memcpy(&head, rec, SOCK_REC_TCP_OWN);
	walk->rows[walk->n++] = (__u64)head.family << 63 |
				(__u64)(head.sl & INT32_MAX) << 32 |
				walk->held_len;
	p = walk->held + walk->held_len;
	memcpy(p, rec, size);
	if (pointer) {
		memcpy(p + size, ptr, ptr_len);
		p[size + ptr_len] = '\n';
	}
	walk->held_len += len;
}

/* A row of the walk's, printed or held. */
static void take_row(struct walk *walk, const char *rec, size_t size,
		     const char *ptr, size_t ptr_len)
{
	if (rec[offsetof(struct sock_rec, family)] == walk->stream_family)
		print_written(walk, rec, size, ptr, ptr_len);
	else
		hold(walk, rec, size, ptr, ptr_len);
}

/* A record kept until its pointer comes. */
static void wait_for_pointer(struct walk *walk, const char *rec, size_t size)
{
	if (walk->waiting == SOCK_PTR_BATCH)
		die("the iterator's rows lack their pointers");
	memcpy(walk->waiting_rec[walk->waiting], rec, size);
	walk->waiting_size[walk->waiting++] = size;
}

/* A batch's pointers p[0..end), given to the rows that wait. */
static void take_pointers(struct walk *walk, const char *p, const char *end)
{
	const char *next;
	unsigned int i;

	for (i = 0; i < walk->waiting; i++, p = next + 1) {
		if (p >= end)
			die("the iterator's rows lack their pointers");
		next = memchr(p, ' ', end - p);
		if (!next)
			next = end;
		take_row(walk, walk->waiting_rec[i], walk->waiting_size[i], p,
			 next - p);
	}
	walk->waiting = 0;
}

/*
 * Takes the records at the start of buf[0..len): each printed or held,
 * or kept until its pointer comes.  Returns the bytes used (a record cut
 * by the end of buf waits for the next read).
 */
static size_t take_records(struct walk *walk, const char *buf, size_t len)
{
	const char *rec, *end;
	size_t off = 0, size;
	__u8 kind;

	while (len - off >= SOCK_REC_TCP_OWN) {
		rec = buf + off;
		kind = rec[offsetof(struct sock_rec, kind)];
		if (kind == SOCK_KIND_END) {
			walk->ended = true;
			return len;
		}
		if (kind == SOCK_KIND_POINTERS) {
			rec += SOCK_REC_TCP_OWN;
			end = memchr(rec, '\n', buf + len - rec);
			if (!end)
				break;
			take_pointers(walk, rec, end);
			off = end + 1 - buf;
			continue;
		}
		size = written_size(walk, rec);
		if (len - off < size)
			break;
		if (walk->it->config.want_pointer)
			wait_for_pointer(walk, rec, size);
		else
			take_row(walk, rec, size, NULL, 0);
		off += size;
	}
	return off;
}

/*
 * The kernel's walk runs in a reader thread, on the other core, while
 * this one formats: reads land in a ring of chunks.  One read() returns
 * at most the kernel's 32 KiB buffer.
 */
#define READ_CHUNKS	4
#define READ_CHUNK	(32 * 1024)
/*
 * kill's reads: half the kernel's buffer.  A read() ends before the
 * program runs on a socket once it holds this much, so a record always
 * fits: a socket closed by the program is never shown again (it is no
 * longer in the table), so a record cut there would be lost.
 */
#define KILL_READ	(READ_CHUNK / 2)

struct reader {
	int fd;
	size_t read_size;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned int filled, taken;	/* chunks, counted from the start */
	bool done;
	int err;			/* errno of a failed read() */
	struct {
		char data[READ_CHUNK];
		size_t len;
	} chunk[READ_CHUNKS];
};

static void *read_chunks(void *arg)
{
	struct reader *rd = arg;
	ssize_t got;

	for (;;) {
		pthread_mutex_lock(&rd->lock);
		while (rd->filled - rd->taken == READ_CHUNKS)
			pthread_cond_wait(&rd->cond, &rd->lock);
		pthread_mutex_unlock(&rd->lock);
		got = read(rd->fd, rd->chunk[rd->filled % READ_CHUNKS].data,
			   rd->read_size);
		/* EAGAIN: a million sockets filtered out in one read() */
		if (got < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		pthread_mutex_lock(&rd->lock);
		if (got > 0)
			rd->chunk[rd->filled++ % READ_CHUNKS].len = got;
		else
			rd->err = got < 0 ? errno : 0;
		rd->done = got <= 0;
		pthread_cond_signal(&rd->cond);
		pthread_mutex_unlock(&rd->lock);
		if (got <= 0)
			return NULL;
	}
}

/* The next chunk read, or NULL at the end of the walk. */
static const char *next_chunk(struct reader *rd, size_t *len)
{
	const char *data = NULL;

	pthread_mutex_lock(&rd->lock);
	while (rd->taken == rd->filled && !rd->done)
		pthread_cond_wait(&rd->cond, &rd->lock);
	if (rd->taken != rd->filled) {
		data = rd->chunk[rd->taken % READ_CHUNKS].data;
		*len = rd->chunk[rd->taken % READ_CHUNKS].len;
	}
	pthread_mutex_unlock(&rd->lock);
	return data;
}

static void chunk_done(struct reader *rd)
{
	pthread_mutex_lock(&rd->lock);
	rd->taken++;
	pthread_cond_signal(&rd->cond);
	pthread_mutex_unlock(&rd->lock);
}

size_t sockiter_read(int fd, void *buf, size_t len)
{
	ssize_t got;

	do
		got = read(fd, buf, len);
	while (got < 0 && (errno == EINTR || errno == EAGAIN));
	if (got < 0)
		die_errno("reading the iterator");
	return got;
}

/*
 * Listeners only: a read() of one IPv4 record's size or less ends at the
 * row that filled it (bpf_seq_read() stops once it has the count asked
 * for), so no read() goes on through the established hash, that has no
 * rows to give, once the program marked the end of the listening hash.
 * Two read()s a listener: fine for the few there are.
 */
static void read_listeners(struct walk *walk, int fd)
{
	static char buf[2 * sizeof(struct sockiter_row)];
	size_t have = 0, used, got;

	while (!walk->ended) {
		got = sockiter_read(fd, buf + have, SOCK_REC_ADDRS + 8);
		if (got == 0)
			break;
		have += got;
		used = take_records(walk, buf, have);
		memmove(buf, buf + used, have - used);
		have -= used;
	}
	if (have || walk->waiting)
		die("the iterator's output is cut short");
}

/* The whole walk, printed or held as it is read. */
static void read_walk(struct walk *walk, int link)
{
	static struct reader rd;
	static char buf[2 * READ_CHUNK];	/* a cut record, then a chunk */
	size_t have = 0, used, len;
	const char *data;
	pthread_t thread;

	rd = (struct reader){
		.fd = bpf_iter_create(link),
		.read_size = walk->it->config.want_kill ? KILL_READ : READ_CHUNK,
	};
	if (rd.fd < 0)
		die_errno("cannot start the iterator");
	if (walk->it->config.listeners_only) {
		read_listeners(walk, rd.fd);
		close(rd.fd);
		return;
	}
	pthread_mutex_init(&rd.lock, NULL);
	pthread_cond_init(&rd.cond, NULL);
	errno = pthread_create(&thread, NULL, read_chunks, &rd);
	if (errno)
		die_errno("cannot start a thread");
	while ((data = next_chunk(&rd, &len))) {
		if (walk->ended) {	/* what follows is not of this walk */
			chunk_done(&rd);
			continue;
		}
		walk->reads++;
		memcpy(buf + have, data, len);
		chunk_done(&rd);
		have += len;
		used = take_records(walk, buf, have);
		memmove(buf, buf + used, have - used);
		have -= used;
	}
	pthread_join(thread, NULL);
	close(rd.fd);
	errno = rd.err;
	if (errno)
		die_errno("reading the iterator");
	if (have || walk->waiting)
		die("the iterator's output is cut short");
}

static void sift_down(__u64 *v, size_t i, size_t n)
{
	size_t c;
	__u64 t;

	for (; (c = 2 * i + 1) < n; i = c) {
		if (c + 1 < n && v[c] < v[c + 1])
			c++;
		if (v[i] >= v[c])
			break;
		t = v[i];
		v[i] = v[c];
		v[c] = t;
	}
}

/* /proc lists UDP sockets by hash slot; kernels from 6.5 walk another
 * hash.  A heapsort: in place, where qsort would take a copy as big. */
static void sort_rows(__u64 *v, size_t n)
{
	size_t i;
	__u64 t;

	for (i = n / 2; i-- > 0;)
		sift_down(v, i, n);
	for (i = n; i-- > 1;) {
		t = v[0];
		v[0] = v[i];
		v[i] = t;
		sift_down(v, 0, i);
	}
}

/* Held row i, printed. */
static void print_held(struct walk *walk, size_t i)
{
	const char *rec = walk->held + (__u32)walk->rows[i];
	size_t size = written_size(walk, rec);
	const char *ptr, *end;

	ptr = end = rec + size;
	if (walk->it->config.want_pointer)
		end = memchr(ptr, '\n', walk->held + walk->held_len - ptr);
	print_written(walk, rec, size, ptr, end - ptr);
}

/* ---- the forms printed here ---- */

static void print_counts(const struct sockiter *it,
			 __u64 (*counts)[SOCK_TCP_STATES])
{
	__u64 sum[2] = { 0 };
	int i;

	if (!it->no_header)
		printf("%-12s %8s %8s %8s\n", "State", "IPv4", "IPv6", "Total");
	for (i = 1; i < SOCK_TCP_STATES; i++) {
		sum[0] += counts[0][i];
		sum[1] += counts[1][i];
		if (!(it->proto->count_states & (1U << i)))	/* all named */
			continue;
		printf("%-12s %8llu %8llu %8llu\n", sock_states[i].name,
		       (unsigned long long)counts[0][i],
		       (unsigned long long)counts[1][i],
		       (unsigned long long)(counts[0][i] + counts[1][i]));
	}
	printf("%-12s %8llu %8llu %8llu\n", "total", (unsigned long long)sum[0],
	       (unsigned long long)sum[1], (unsigned long long)(sum[0] + sum[1]));
}

/* One walk of the current network namespace, printed (headers: the
 * table's first); returns the read()s that brought rows. */
static size_t dump(const struct sockiter *it, int link,
		   const struct sockiter_prog *prog, const char *netns,
		   bool headers)
{
	__u32 families = it->config.filter.families;
	int first = families & (1 << SOCK_FAMILY_V4) ? SOCK_FAMILY_V4 :
						       SOCK_FAMILY_V6;
	bool proc_headers = it->output == SOCK_OUT_PROC && !it->no_header;
	bool table_header = it->output == SOCK_OUT_TABLE && !it->no_header &&
			    headers;
	struct walk walk = {
		.it = it, .netns = netns,
		.stream_family = it->proto->sort_by_sl ? -1 : first,
	};
	size_t i;

	sockiter_flush_out();
	if (it->output == SOCK_OUT_COUNT)
		memset(prog->counts, 0, sizeof(prog->counts[0]) * 2);
	if (table_header)
		sockiter_table_header(it);
	if (proc_headers)
		sockiter_proc_header(it, first);
	read_walk(&walk, link);
	if (it->output == SOCK_OUT_COUNT)
		print_counts(it, prog->counts);
	if (it->proto->sort_by_sl)
		sort_rows(walk.rows, walk.n);
	for (i = 0; i < walk.n && walk.rows[i] >> 63 == SOCK_FAMILY_V4; i++)
		print_held(&walk, i);
	if (proc_headers && first == SOCK_FAMILY_V4 &&
	    families & (1 << SOCK_FAMILY_V6))
		sockiter_proc_header(it, SOCK_FAMILY_V6);
	for (; i < walk.n; i++)
		print_held(&walk, i);
	sockiter_flush_out();
	free(walk.held);
	free(walk.rows);
	return walk.reads;
}

/* ---- network namespaces ---- */

/* path opened as a network namespace; -1 with errno set when it is not,
 * or no longer, one: ENOENT (gone) or EINVAL (another kind of file). */
static int open_netns(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

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

static void enter_netns(int fd, const char *what)
{
	if (setns(fd, CLONE_NEWNET))
		die_errno("cannot enter network namespace %s", what);
	close(fd);
}

static bool all_digits(const char *s)
{
	return *s && strspn(s, "0123456789") == strlen(s);
}

/* path = format with -N's spec in it; cut short, it could name another
 * namespace's file. */
static void spec_path(char *path, size_t size, const char *format,
		      const char *spec)
{
	if (snprintf(path, size, format, spec) >= (int)size)
		die_usage("-N takes a name or path shorter than %zu bytes, got %zu",
			  size, strlen(spec));
}

/*
 * -N SPEC's path into path: a path as it is; pid:PID the process's; a
 * name in /run/netns.  An all-digit SPEC names the process only when no
 * entry of /run/netns has that name (ip netns add takes "2", and PID 2 is
 * kthreadd in the host's namespace); when both exist it is refused.
 */
static void netns_path(const char *spec, char *path, size_t size)
{
	char proc[32];
	struct stat st;
	bool named;

	if (strchr(spec, '/')) {
		spec_path(path, size, "%s", spec);
		return;
	}
	if (!strncmp(spec, "pid:", 4)) {
		if (!all_digits(spec + 4))
			die_usage("-N pid:PID takes a process number, got '%s'",
				  spec);
		spec_path(path, size, "/proc/%s/ns/net", spec + 4);
		return;
	}
	spec_path(path, size, "/run/netns/%s", spec);
	if (!all_digits(spec))
		return;
	named = !lstat(path, &st);
	snprintf(proc, sizeof(proc), "/proc/%.20s", spec);
	if (named && !stat(proc, &st))
		die_usage("-N %s is both /run/netns/%s and process %s: say "
			  "-N /run/netns/%s or -N pid:%s", spec, spec, spec,
			  spec, spec);
	if (!named)
		spec_path(path, size, "/proc/%s/ns/net", spec);
}

/* -N SPEC (netns_path()) */
static void enter_named_netns(const char *spec)
{
	char path[PATH_MAX];
	int fd;

	netns_path(spec, path, sizeof(path));
	fd = open_netns(path);
	if (fd < 0)
		die("unknown network namespace %s (%s: %s)", spec, path,
		    netns_error(errno));
	enter_netns(fd, spec);
}

struct netns {
	dev_t dev;
	ino_t ino;
	char path[64 + 256];
	char label[96 + 256];
};

struct netns_list {
	struct netns *ns;
	size_t n, cap;
};

static void add_netns(struct netns_list *l, const char *path,
		      const char *label)
{
	struct stat st;
	size_t i;

	if (stat(path, &st))
		return;
	for (i = 0; i < l->n; i++)
		if (l->ns[i].dev == st.st_dev && l->ns[i].ino == st.st_ino)
			return;
	l->ns = sockiter_grow(l->ns, &l->cap, l->n + 1, sizeof(*l->ns));
	l->ns[l->n].dev = st.st_dev;
	l->ns[l->n].ino = st.st_ino;
	snprintf(l->ns[l->n].path, sizeof(l->ns[0].path), "%s", path);
	snprintf(l->ns[l->n].label, sizeof(l->ns[0].label), "net:[%lu] %s",
		 (unsigned long)st.st_ino, label);
	l->n++;
}

static void add_netns_dir(struct netns_list *l, const char *dir, bool pids)
{
	char path[64 + 256], label[64 + 256];
	struct dirent *e;
	DIR *d = opendir(dir);

	if (!d)
		return;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (pids && !all_digits(e->d_name))
			continue;
		snprintf(path, sizeof(path), pids ? "%s/%s/ns/net" : "%s/%s",
			 dir, e->d_name);
		snprintf(label, sizeof(label), pids ? "pid %s" : "%s",
			 e->d_name);
		add_netns(l, path, label);
	}
	closedir(d);
}

static int by_inode(const void *x, const void *y)
{
	const struct netns *a = x, *b = y;

	return a->ino < b->ino ? -1 : a->ino > b->ino;
}

static void dump_all_netns(const struct sockiter *it, int link,
			   const struct sockiter_prog *prog)
{
	struct netns_list l = { 0 };
	size_t i;

	add_netns_dir(&l, "/run/netns", false);
	add_netns_dir(&l, "/proc", true);
	qsort(l.ns, l.n, sizeof(*l.ns), by_inode);
	for (i = 0; i < l.n; i++) {
		int fd = open_netns(l.ns[i].path);

		/* a stale entry of /run/netns, a process gone meanwhile */
		if (fd < 0 && (errno == ENOENT || errno == ESRCH ||
			       errno == EINVAL)) {
			if (it->verbose)
				warn_msg("skipping %s: %s", l.ns[i].path,
					 netns_error(errno));
			continue;
		}
		if (fd < 0)
			die_errno("cannot open network namespace %s",
			    l.ns[i].path);
		enter_netns(fd, l.ns[i].label);
		if (it->output != SOCK_OUT_JSON)
			printf("# netns %s\n", l.ns[i].label);
		dump(it, link, prog, l.ns[i].label, true);
	}
	free(l.ns);
}

/* ---- pin ---- */

static bool on_bpffs(const char *path)
{
	struct statfs st;

	/* f_type is a signed int on 32-bit ARM: the magic as its type. */
	return !statfs(path, &st) && st.f_type == (__typeof__(st.f_type))BPF_FS_MAGIC;
}

static void pin(const struct sockiter *it, int link)
{
	const char *path = it->pin_path;
	char dir[PATH_MAX];
	struct stat st;

	if (!on_bpffs("/sys/fs/bpf") &&
	    mount("bpf", "/sys/fs/bpf", "bpf", 0, NULL))
		die_errno("cannot mount bpffs at /sys/fs/bpf");
	if (!stat(path, &st) && S_ISDIR(st.st_mode))
		die("%s is a directory: pin takes the path of a new file in "
		    "it, e.g. %s/%s", path, path, it->proto->name);
	snprintf(dir, sizeof(dir), "%s", path);
	if (stat(dirname(dir), &st) || !S_ISDIR(st.st_mode))
		die("no directory %s for %s: create it (mkdir -p %s)", dir,
		    path, dir);
	if (!on_bpffs(dir))
		die("%s is not on a bpffs (mount -t bpf bpf DIR, or use "
		    "/sys/fs/bpf)", path);
	if (!access(path, F_OK))
		die("%s exists: remove it first (rm %s)", path, path);
	if (bpf_obj_pin(link, path))
		die_errno("cannot pin at %s", path);
}

/* ---- kill ---- */

/*
 * A walk that closes sockets may skip some: on kernels that resume each
 * read() at a count of the sockets of the hash bucket it stopped in
 * (bpf/kernel_types.h: 6.5 to 6.17 or so), the count no longer holds once
 * sockets before were closed.  There a walk that closed sockets over
 * more than one read() is followed by another, which closes what was
 * skipped; the program passes over the sockets this run closed already.
 * A few passes at most: sockets that keep coming are for another run.
 */
#define KILL_PASSES	4

/* Set and not empty: kill closes through inet_diag where the kernel has
 * bpf_sock_destroy() too, so that the tests cover that path there. */
#define KILL_INET_DIAG	"KIT_KILL_INET_DIAG"

static int kill_sockets(struct sockiter *it, const struct sockiter_loader *loader,
		const struct sockiter_loader *kill_loader)
{
	const char *env = getenv(KILL_INET_DIAG);
	bool force_inet_diag = env && *env;
	bool by_kfunc = false;
	struct sockiter_prog prog;
	size_t closed, reads;
	int link, pass;

	prepare(it);
	if (!it->dry_run && !force_inet_diag)
		by_kfunc = !load_prog(it, kill_loader, &prog);
	if (it->verbose && !it->dry_run)
		warn_msg("closing %s", by_kfunc ? "with bpf_sock_destroy()" :
			 force_inet_diag ? "through inet_diag (" KILL_INET_DIAG ")" :
			 "through inet_diag (no bpf_sock_destroy())");
	link = by_kfunc ? attach(it, &prog) : load(it, loader, &prog);
	if (it->owners)
		sockiter_read_owners(it->verbose);
	if (it->netns)
		enter_named_netns(it->netns);
	if (!it->dry_run && !by_kfunc) {
		if (!has_cap(CAP_NET_ADMIN))
			die("kill needs root or CAP_NET_ADMIN to close sockets "
			    "through inet_diag (kernels before 6.5)");
		sockiter_kill_check(it->proto);
	}
	prog.kill_state->run = (__u64)getpid() << 32 | (__u32)time(NULL);
	for (pass = 0; pass < KILL_PASSES; pass++) {
		closed = sockiter_kill_closed();
		reads = dump(it, link, &prog, NULL, pass == 0);
		if (it->verbose)
			warn_msg("walk %d: %zu closed, %zu reads", pass + 1,
				 sockiter_kill_closed() - closed, reads);
		if (!by_kfunc || prog.kill_state->exact_resume || reads <= 1 ||
		    sockiter_kill_closed() == closed)
			break;
	}
	close(link);
	return sockiter_kill_summary(it, prog.kill_state->unlisted);
}

int sockiter_run(struct sockiter *it, const struct sockiter_loader *loader,
		 const struct sockiter_loader *kill_loader)
{
	struct sockiter_prog prog;
	int link;

	if (it->kill)
		return kill_sockets(it, loader, kill_loader);
	prepare(it);
	link = load(it, loader, &prog);

	if (it->owners)
		sockiter_read_owners(it->verbose);
	if (it->pin_path)
		pin(it, link);
	else if (it->all_netns)
		dump_all_netns(it, link, &prog);
	else {
		if (it->netns)
			enter_named_netns(it->netns);
		dump(it, link, &prog, NULL, true);
	}
	close(link);
	return 0;
}
