/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What tcpiter's and udpiter's BPF programs and their userspace share: the
 * record a program writes per socket, the filter it applies, and the
 * kernel's jiffies to clock_t conversion (kept here so a unit test checks
 * the very code the BPF programs run).  Userspace includes <linux/types.h>
 * and <stdbool.h> first; the BPF side has kernel_types.h.
 */
#ifndef SOCKREC_H
#define SOCKREC_H

/* What a program does with each socket (const volatile mode). */
enum sockiter_mode {
	SOCK_MODE_RECORDS,	/* a struct sock_rec per socket; with
				 * want_pointer, their pointers in batches
				 * (SOCK_KIND_POINTERS) */
	SOCK_MODE_TEXT,	/* the /proc line itself (pinned iterators) */
	SOCK_MODE_COUNT,	/* only bump counts[family][state] */
};

/* Which of /proc's line layouts a record takes. */
enum sock_kind {
	SOCK_KIND_FULL,	/* a full TCP or UDP socket */
	SOCK_KIND_TIMEWAIT,	/* TCP TIME_WAIT (and FIN_WAIT2 timewait) */
	SOCK_KIND_REQUEST,	/* TCP request socket, shown as SYN_RECV */
	SOCK_KINDS		/* how many */
};
/*
 * Not a socket, SOCK_REC_TCP_OWN bytes: the walk is over (in records
 * mode), or the listening hash is (listeners_only).  Reads after the end
 * may bring more: a kernel before 5.15 (commit 04c7820b776f) resumes by
 * position, and walks on if the table grew meanwhile.
 */
#define SOCK_KIND_END	SOCK_KINDS
/*
 * Not a socket: the pointers (want_pointer) of the rows written since
 * the last such record, that has SOCK_REC_TCP_OWN bytes, then text:
 * SOCK_PTR_BATCH of them "%pK" back to back, then a newline.  The
 * kernel prints each one as wide as the others, 2 * sizeof(long) of its
 * own (pointer_string(), which hashed, zeroed and raw pointers all go
 * through; ptr_to_id()'s "(____ptrval____)" is as wide), so the text is
 * split by its length.  Those past the rows that wait for one are filler.
 */
#define SOCK_KIND_POINTERS	(SOCK_KINDS + 1)
#define SOCK_PTR_BATCH		12	/* bpf_seq_printf()'s most arguments */

/*
 * The /proc/net tables, as net/ipv4/tcp_ipv4.c, udp.c and net/ipv6/ print
 * them: the headers; IPv4 rows padded to a width (seq_setwidth(), IPv6
 * rows are not); sl printed "%4d: " (TCP) or "%5d: " (UDP).
 */
#define PROC_TCP_HEADER4 "  sl  local_address rem_address   st tx_queue " \
	"rx_queue tr tm->when retrnsmt   uid  timeout inode"
#define PROC_TCP_HEADER6 "  sl  local_address                         " \
	"remote_address                        st tx_queue rx_queue tr " \
	"tm->when retrnsmt   uid  timeout inode"
#define PROC_TCP_WIDTH4		149	/* TMPSZ - 1 */
#define PROC_TCP_SL_WIDTH	4
/* From 5.16 (commit 6c25449e1a32, "net: udp: fix alignment problem in
 * udp4_seq_show()"), and in some stable kernels; before, it began with one
 * space less: PROC_UDP_HEADER4_SKIP(wide) characters of it are left out. */
#define PROC_UDP_HEADER4_SKIP(wide)	((wide) ? 0 : 1)
#define PROC_UDP_HEADER4 "   sl  local_address rem_address   st tx_queue " \
	"rx_queue tr tm->when retrnsmt   uid  timeout inode ref pointer drops"
#define PROC_UDP_HEADER6 "  sl  local_address                         " \
	"remote_address                        st tx_queue rx_queue tr " \
	"tm->when retrnsmt   uid  timeout inode ref pointer drops"
#define PROC_UDP_WIDTH4		127
#define PROC_UDP_SL_WIDTH	5

/* /proc's st: the TCP states of include/net/tcp_states.h; UDP sockets
 * are ESTABLISHED (connected) or CLOSE. */
enum sock_state {
	SOCK_ST_ESTABLISHED = 1, SOCK_ST_SYN_SENT, SOCK_ST_SYN_RECV,
	SOCK_ST_FIN_WAIT1, SOCK_ST_FIN_WAIT2, SOCK_ST_TIME_WAIT,
	SOCK_ST_CLOSE, SOCK_ST_CLOSE_WAIT, SOCK_ST_LAST_ACK, SOCK_ST_LISTEN,
	SOCK_ST_CLOSING, SOCK_ST_NEW_SYN_RECV,
};

#define SOCK_TCP_STATES	16	/* arrays indexed by state */
#define SOCK_STATE_MASK	(SOCK_TCP_STATES - 1)	/* a state as such an index */
/* The states a table can show: TCP's 1..11, UDP's two (a bit each). */
#define SOCK_STATES_TCP	\
	((1U << (SOCK_ST_CLOSING + 1)) - (1U << SOCK_ST_ESTABLISHED))
#define SOCK_STATES_UDP	(1U << SOCK_ST_ESTABLISHED | 1U << SOCK_ST_CLOSE)

/* /proc's tr: the timer pending (get_tcp4_sock() and the like). */
enum sock_timer {
	SOCK_TIMER_NONE, SOCK_TIMER_RETRANSMIT, SOCK_TIMER_KEEPALIVE,
	SOCK_TIMER_TIMEWAIT, SOCK_TIMER_PROBE0,
};
#define SOCK_FAMILY_V4	0	/* index into counts[] and filter.families */
#define SOCK_FAMILY_V6	1

struct sock_rec {
	/* every record */
	__u64 inode;
	__u32 sl;
	__u32 tx_queue;
	__u32 rx_queue;
	__u32 uid;
	__u32 refcnt;
	__u32 drops;		/* UDP */
	__u16 sport;
	__u16 dport;
	__u8 family;		/* SOCK_FAMILY_V4 or SOCK_FAMILY_V6 */
	__u8 kind;		/* enum sock_kind */
	__u8 state;
	__u8 timer;
	/* TCP's own */
	__u64 when;		/* clock_t ticks until the timer fires */
	__u32 rto;		/* clock_t */
	__u32 ato;		/* clock_t */
	__u32 cwnd;
	__s32 ssthresh;		/* listeners: fastopen max_qlen */
	__u32 max_backlog;	/* listeners: ss's Send-Q, not in /proc */
	__u16 quick_pingpong;	/* (icsk_ack.quick << 1) | pingpong */
	__u8 retransmits;
	__u8 probes;
	/* every record */
	__u32 src[4];		/* addresses as in memory: IPv4 in [0] */
	__u32 dst[4];
};

/*
 * A record as a program writes it: its fields, where UDP's stop before
 * TCP's own, then its addresses, where IPv4's are src[0] then dst[0].
 * Fewer bytes to copy out of the kernel, and to hold where rows wait to
 * be sorted.
 */
#define SOCK_REC_TCP_OWN	__builtin_offsetof(struct sock_rec, when)
#define SOCK_REC_ADDRS		__builtin_offsetof(struct sock_rec, src)
#define SOCK_REC_FIELDS(tcp)	((tcp) ? SOCK_REC_ADDRS : SOCK_REC_TCP_OWN)
#define SOCK_REC_ADDR_SIZE(family) ((family) == SOCK_FAMILY_V4 ? 8 : 32)

/* struct sock_info's options: tcp_info's TCPI_OPT_* bits */
#define SOCK_OPT_TS		1
#define SOCK_OPT_SACK		2
#define SOCK_OPT_WSCALE		4
#define SOCK_OPT_ECN		8
#define SOCK_OPT_ECN_SEEN	16
#define SOCK_OPT_SYN_DATA	32	/* ss's "fastopen" */

#define SOCK_INFO_NONE		(~0ULL)	/* pacing_rate: unlimited */
/* TCP_INFINITE_SSTHRESH (include/net/tcp.h): ssthresh not yet set */
#define SOCK_INFINITE_SSTHRESH	0x7fffffff
#define SOCK_INFO_NO_RTT	(~0U)	/* min_rtt: no sample yet */

/*
 * -i: what tcp_get_info() (net/ipv4/tcp.c) reports of a full TCP socket,
 * derived the same way and in the same units, read from tcp_sock by the
 * program.  It follows the addresses of full sockets' records, only when
 * config.want_info: the default output copies no byte more.  A listener
 * has only the pacing rates, reordering, cwnd, unacked (its accept queue)
 * and sacked (its backlog), and the congestion control, as there.
 */
struct sock_info {
	__u64 pacing_rate;	/* bytes/s, SOCK_INFO_NONE */
	__u64 max_pacing_rate;
	__u64 bytes_sent;
	__u64 bytes_retrans;
	__u64 bytes_acked;
	__u64 bytes_received;
	__u64 delivery_rate;	/* bytes/s */
	__u64 busy_time;	/* us, and the two parts of it: */
	__u64 rwnd_limited;
	__u64 sndbuf_limited;
	__u32 rto;		/* us */
	__u32 ato;		/* us */
	__u32 rtt;		/* us */
	__u32 rttvar;		/* us */
	__u32 rcv_rtt;		/* us */
	__u32 min_rtt;		/* us, SOCK_INFO_NO_RTT */
	__u32 snd_mss;
	__u32 rcv_mss;
	__u32 pmtu;
	__u32 advmss;
	__u32 cwnd;
	__u32 ssthresh;
	__u32 segs_out;
	__u32 segs_in;
	__u32 data_segs_out;
	__u32 data_segs_in;
	__u32 last_data_sent;	/* ms ago */
	__u32 last_data_recv;
	__u32 last_ack_recv;
	__u32 delivered;
	__u32 delivered_ce;
	__u32 unacked;
	__u32 sacked;
	__u32 lost;
	__u32 retrans;
	__u32 total_retrans;
	__u32 reordering;
	__u32 reord_seen;
	__u32 dsack_dups;
	__u32 rcv_ooopack;
	__u32 rcv_space;
	__u32 rcv_ssthresh;
	__u32 notsent;
	__u32 snd_wnd;
	__u32 rcv_wnd;
	__u8 options;		/* SOCK_OPT_* */
	__u8 snd_wscale;
	__u8 rcv_wscale;
	__u8 backoff;
	__u8 app_limited;
	__u8 pad[3];
	char cong[16];		/* the congestion control's name */
};

/*
 * The filter, evaluated in the BPF program.  Addresses are matched as
 * IPv6: an IPv4 address is ::ffff:a.b.c.d, so an IPv4 prefix also
 * matches IPv4-mapped addresses of IPv6 sockets; a prefix written in IPv6
 * (src_v6) matches IPv6 sockets only.
 */
struct sockiter_filter {
	__u32 states;		/* bit (1 << state); 0: any */
	__u32 families;		/* bit (1 << SOCK_FAMILY_V4/V6) */
	__s32 sport;		/* -1: any */
	__s32 dport;
	__s64 uid;		/* -1: any */
	__u32 src[4];		/* network order, already masked */
	__u32 src_mask[4];	/* all zero: any */
	__u32 dst[4];
	__u32 dst_mask[4];
	bool src_v6;
	bool dst_v6;
};

/* The knobs userspace sets before loading (const volatile). */
struct sockiter_config {
	__u32 mode;		/* enum sockiter_mode */
	__u32 hz;		/* the kernel's CONFIG_HZ */
	bool want_pointer;	/* SOCK_MODE_RECORDS: add /proc's pointer */
	bool udp_header_wide;	/* /proc/net/udp's header starts "   sl" */
	bool listeners_only;	/* TCP: end the listeners with a record
				 * of kind SOCK_KIND_END */
	bool want_info;		/* TCP, -i: a struct sock_info after the
				 * addresses of full sockets */
	bool want_kill;		/* kill: a struct sock_kill after every
				 * record (and after its sock_info) */
	struct sockiter_filter filter;
};

/* kill: what was done to a record's socket, or is left to do. */
#define SOCK_KILL_NETLINK	1	/* err: not closed by the program;
					 * userspace's, through inet_diag */
struct sock_kill {
	__u64 cookie;		/* the socket's cookie; 0: none made yet */
	__s32 ifindex;		/* the device it is bound to (the lookup
				 * of inet_diag's SOCK_DESTROY needs it) */
	__s32 err;		/* 0: closed by bpf_sock_destroy(); -errno:
				 * its refusal; or SOCK_KILL_NETLINK */
};

/* kill, in the program's .bss: each pass's mark, and what could not be
 * written out. */
struct sock_kill_state {
	__u64 run;		/* this run's mark: sockets that carry it
				 * were closed by an earlier pass */
	__u64 unlisted;		/* closed but their record did not fit
				 * the read (never, with KILL_READ reads) */
	__u64 unmarked;		/* left to inet_diag: no mark to be had */
	bool exact_resume;	/* the kernel resumes a walk at the socket
				 * it stopped at, so no walk skips one */
};

/* -p: one open file of a task that is a socket (iter/task_file); pid is
 * the process's number in the reader's pid namespace. */
struct sock_owner_rec {
	__u64 inode;
	__u32 pid;
	__u32 fd;
	char comm[16];
};

#define USER_HZ		100
#define NSEC_PER_SEC	1000000000ULL

/* The kernel's jiffies_to_clock_t(), whose branch depends on whether a
 * tick is a whole number of USER_HZ ticks (kernel/time/time.c). */
static inline __u64 jiffies_to_clock_t(__u64 x, __u32 hz)
{
	__u64 tick_nsec = (NSEC_PER_SEC + hz / 2) / hz;

	if (tick_nsec % (NSEC_PER_SEC / USER_HZ) == 0) {
		if (hz < USER_HZ)
			return x * (USER_HZ / hz);
		return x / (hz / USER_HZ);
	}
	return x * tick_nsec / (NSEC_PER_SEC / USER_HZ);
}

/* jiffies_to_usecs() and jiffies_to_msecs() (include/linux/jiffies.h):
 * exact where HZ divides a second's units, rounded as there otherwise. */
static inline __u32 sock_jiffies_to_usecs(__u64 j, __u32 hz)
{
	return j * 1000000 / hz;
}

static inline __u32 sock_jiffies_to_msecs(__u64 j, __u32 hz)
{
	return (j * 1000 + hz - 1) / hz;
}

/* jiffies_delta_to_clock_t(): a timer already due shows 0. */
static inline __u64 jiffies_delta_to_clock_t(long delta, __u32 hz)
{
	return delta > 0 ? jiffies_to_clock_t(delta, hz) : 0;
}

#endif
