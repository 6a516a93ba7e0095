/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sockiter: what tcpiter and udpiter share (applets/sockiter.c): the
 * command line, loading the BPF iterator, walking network namespaces,
 * pinning, and the output forms.  Each applet brings its BPF skeleton and
 * a struct sockiter_proto.
 */
#ifndef SOCKITER_H
#define SOCKITER_H

#include <linux/types.h>
#include <stdbool.h>

#include "../../bpf/sockrec.h"

/* The parts of tcpiter's and udpiter's usage that are the same. */
#define SOCKITER_USAGE_FILTERS \
"  --sport PORT    local port           --dport PORT   remote port\n" \
"  --src ADDR[/LEN] local address or prefix, IPv4 or IPv6\n" \
"  --dst ADDR[/LEN] remote address or prefix.  An IPv4 prefix also matches\n" \
"                  IPv4-mapped addresses (::ffff:a.b.c.d) of IPv6 sockets;\n" \
"                  an IPv6 one matches IPv6 sockets only\n" \
"  --uid UID       owner\n" \
"  The sl column keeps /proc's numbers when rows are filtered out.\n" \
"\n" \
"Network namespaces:\n" \
"  -N NETNS        walk NETNS: a name in /run/netns, a path such as\n" \
"                  /proc/PID/ns/net, or pid:PID; a bare PID when no name\n" \
"                  in /run/netns is that number (both: refused)\n" \
"  --all-netns     walk every network namespace (/proc/*/ns/net and\n" \
"                  /run/netns/*), each section after a line\n" \
"                  \"# netns net:[INODE] LABEL\" (-j: a \"netns\" field)\n"

/* The pin paragraph of PROTO's usage; ORDER says in which order rows come. */
#define SOCKITER_USAGE_PIN(PROTO, ORDER) \
"\n" \
"pin: load the iterator with its filters and pin it at PATH on bpffs\n" \
"(mounting bpffs at /sys/fs/bpf if needed).  Then every read of PATH, by\n" \
"any program (`cat PATH`), prints a fresh /proc/net/" PROTO " (-4) or " \
PROTO "6 (-6)\n" \
"table of the reader's network namespace, formatted in the kernel" ORDER \
".\n" \
"One table a file: pin twice for both.  Remove it with `rm PATH`.\n"

/* The kill paragraph of PROTO's usage; AFTER says what is left after. */
#define SOCKITER_USAGE_KILL(AFTER) \
"\n" \
"kill: close the sockets the filters select, listing each as -t does (the\n" \
"socket as it was), then a count.  From Linux 6.5 the program closes full\n" \
"sockets in the walk (bpf_sock_destroy()); TIME_WAIT and request sockets,\n" \
"and all on older kernels, are closed through inet_diag as ss -K does\n" \
"(CONFIG_INET_DIAG_DESTROY, and root or CAP_NET_ADMIN).  " AFTER "\n" \
"Sockets not closed are reported, one line each, and kill exits 1.\n" \
"  -n              list what would be closed, close nothing\n" \
"  --all           close every socket: kill with no filter (both families,\n" \
"                  no address, port or uid, no state or -s all) is refused\n"

/* What differs between TCP and UDP. */
struct sockiter_proto {
	const char *name;		/* "tcp": /proc/net/tcp, "TCP" in errors */
	const char *iter_func;		/* the kernel's bpf_iter_tcp */
	const char *header4;		/* /proc's headers, unpadded */
	const char *header6;
	int sl_width;			/* %4d or %5d */
	int width4;			/* IPv4 rows are padded to this */
	bool sort_by_sl;		/* UDP: /proc lists by hash slot */
	bool tcp_tail;			/* rto ato quick cwnd ssthresh, not drops */
	__u32 count_states;		/* the protocol's: -c lists them,
					 * kill -s with all is no filter */
};

/* A loaded iterator program, from either skeleton. */
struct sockiter_prog {
	int fd;
	/* the program's .bss, mapped */
	__u64 (*counts)[SOCK_TCP_STATES];
	struct sock_kill_state *kill_state;
};

/*
 * The applet's two ways to load its program with *config.  load_light,
 * the light skeleton, lets the kernel do the CO-RE relocations (5.17 and
 * later): no reading and searching of the kernel's BTF here.  load_libbpf
 * works on any kernel with BTF and says why it fails; NULL for kill's
 * programs, which only kernels that take light skeletons can load (the
 * kfunc bpf_sock_destroy() came in 6.5, the kernel's CO-RE for loaders
 * in 5.17).  Both return 0 or a negative errno.
 */
struct sockiter_loader {
	int (*load_light)(const struct sockiter_config *config,
			  struct sockiter_prog *prog);
	int (*load_libbpf)(const struct sockiter_config *config,
			   struct sockiter_prog *prog);
};

/*
 * Defines NAME_load_light, that loads program PROG of applet NAME from the
 * light skeleton NAME.lskel.h (struct NAME_light), included before.
 */
#define SOCKITER_LOAD_LIGHT(NAME, PROG)					\
static int NAME##_load_light(const struct sockiter_config *config,	\
			     struct sockiter_prog *prog)		\
{									\
	struct NAME##_light *skel = NAME##_light__open();		\
	int err;							\
									\
	if (!skel)							\
		return -ENOMEM;						\
	skel->rodata->config = *config;					\
	err = NAME##_light__load(skel);					\
	if (err) {							\
		NAME##_light__destroy(skel);				\
		return err;						\
	}								\
	prog->fd = skel->progs.PROG.prog_fd;				\
	prog->counts = skel->bss->counts;				\
	prog->kill_state = &skel->bss->kill_state;			\
	return 0;							\
}

/* Defines NAME_loader, that loads program PROG of applet NAME from the
 * light skeleton NAME.lskel.h only. */
#define SOCKITER_LIGHT_LOADER(NAME, PROG)				\
SOCKITER_LOAD_LIGHT(NAME, PROG)						\
									\
static const struct sockiter_loader NAME##_loader = {			\
	.load_light = NAME##_load_light,				\
}

/*
 * Defines NAME_loader, the two ways to load program PROG of applet NAME:
 * from the light skeleton NAME.lskel.h (struct NAME_light) and from the
 * skeleton NAME.skel.h (struct NAME), both included before.
 */
#define SOCKITER_LOADER(NAME, PROG)					\
SOCKITER_LOAD_LIGHT(NAME, PROG)						\
									\
static int NAME##_load_libbpf(const struct sockiter_config *config,	\
			      struct sockiter_prog *prog)		\
{									\
	struct NAME *skel = NAME##__open();				\
	int err;							\
									\
	if (!skel)							\
		return -errno;						\
	skel->rodata->config = *config;					\
	err = NAME##__load(skel);					\
	if (err) {							\
		NAME##__destroy(skel);					\
		return err;						\
	}								\
	prog->fd = bpf_program__fd(skel->progs.PROG);			\
	prog->counts = skel->bss->counts;				\
	prog->kill_state = &skel->bss->kill_state;			\
	return 0;							\
}									\
									\
static const struct sockiter_loader NAME##_loader = {			\
	.load_light = NAME##_load_light,				\
	.load_libbpf = NAME##_load_libbpf,				\
}

enum sockiter_output {
	SOCK_OUT_PROC, SOCK_OUT_TABLE, SOCK_OUT_JSON, SOCK_OUT_COUNT
};

struct sockiter {
	const struct sockiter_proto *proto;
	struct sockiter_config config;
	enum sockiter_output output;
	bool no_header;
	bool verbose;
	bool all_netns;
	bool owners;			/* -p */
	bool info;			/* -i, TCP: config.want_info */
	bool kill;			/* kill */
	bool dry_run;			/* kill -n */
	const char *netns;		/* -N */
	const char *pin_path;		/* pin PATH */
};

/* /proc's pointer, as the program printed it ("%pK\n") */
#define SOCK_PTR_MAX 32

/* One socket of the walk. */
struct sockiter_row {
	struct sock_rec r;
	struct sock_info info;		/* -i, full sockets */
	struct sock_kill kill;		/* kill */
	__u32 ptr_len;
	char ptr[SOCK_PTR_MAX];
};

/* sockfmt.c: rows as text, buffered for stdout, in the form asked for;
 * and all that is buffered, stdio's too, written out (a walk stops at
 * the first write error). */
void sockiter_proc_header(const struct sockiter *it, int family);
void sockiter_table_header(const struct sockiter *it);
void sockiter_print_row(const struct sockiter *it,
			const struct sockiter_row *w, const char *netns);
void sockiter_flush_out(void);
/* r's -t row, its spaces squeezed, for messages */
#define SOCK_BRIEF_MAX 160
void sockiter_row_brief(char *buf, const struct sock_rec *r);
/* The kernel's HZ, to turn timers' jiffies into /proc's clock ticks;
 * verbose: say when it is a guess */
__u32 sockiter_kernel_hz(bool verbose);
/* Does /proc/net/udp's header start with three spaces (5.16 on)? */
bool sockiter_udp_header_wide(void);

/* v, an array of *cap elements of size bytes, with room for need: its
 * capacity doubled, or need if that is more (dies out of memory). */
void *sockiter_grow(void *v, size_t *cap, size_t need, size_t size);

/* read() of an iterator: EINTR, and EAGAIN (a million sockets filtered
 * out in one read), retried; an error dies.  0 at the end. */
size_t sockiter_read(int fd, void *buf, size_t len);

/* sockowner.c, -p: every task's sockets read once (dies on failure),
 * then the owners of the socket with that inode, n of them, the last
 * process and fd first (as ss lists them). */
void sockiter_read_owners(bool verbose);
const struct sock_owner_rec *sockiter_owners_of(__u64 inode, size_t *n);

/* sockkill.c, kill: dies unless inet_diag can close PROTO's sockets; */
void sockiter_kill_check(const struct sockiter_proto *proto);
/* closes w's socket if the program left it to inet_diag, and says
 * whether it is closed (-n: would be), to be listed; refusals are
 * reported; */
bool sockiter_kill_row(const struct sockiter *it, const struct sockiter_row *w);
/* the sockets closed so far; and the count that ends the output, whose
 * return is the exit status (1: some not closed, or unlisted, closed by
 * the program with no row to show). */
size_t sockiter_kill_closed(void);
int sockiter_kill_summary(const struct sockiter *it, __u64 unlisted);

/* States by ss's names, and as ss's State column shows them. */
struct sock_state_names {
	const char *name, *label;
};
extern const struct sock_state_names sock_states[SOCK_TCP_STATES];

/* Parses the command line into *it (usage errors exit 2). */
void sockiter_parse(struct sockiter *it, const struct sockiter_proto *proto,
		    int argc, char **argv);

/* Loads the program (kill: kill_loader's, if the kernel takes it) and
 * does what the command line asked; returns the exit status (runtime
 * errors exit 1). */
int sockiter_run(struct sockiter *it, const struct sockiter_loader *loader,
		 const struct sockiter_loader *kill_loader);

#endif
