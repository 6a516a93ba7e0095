/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel types tcpiter and udpiter read, declared by hand: only the
 * fields used.  preserve_access_index makes every access a CO-RE
 * relocation, resolved by name against the running kernel's BTF at load
 * time, so the build never reads the building machine's kernel and the
 * order and offsets here do not matter.  Fields that some kernels lack
 * are declared too, and tested with bpf_core_field_exists().  Each struct
 * reached through a pointer costs libbpf (5.10's loader) one search of
 * all the kernel's types: fields are reached from few of them.
 */
#ifndef KERNEL_TYPES_H
#define KERNEL_TYPES_H

typedef signed char __s8;
typedef unsigned char __u8;
typedef short __s16;
typedef unsigned short __u16;
typedef int __s32;
typedef unsigned int __u32;
typedef long long __s64;
typedef unsigned long long __u64;
typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
typedef __u16 __be16;
typedef __u32 __be32;
typedef __u32 __wsum;
typedef __u32 uid_t;
typedef _Bool bool;
enum { false = 0, true = 1 };

/* UAPI constants (stable numbers) */
#define BPF_MAP_TYPE_LRU_HASH	9
#define BPF_MAP_TYPE_SK_STORAGE	24
#define BPF_NOEXIST		1
#define BPF_F_NO_PREALLOC	1
#define BPF_SK_STORAGE_GET_F_CREATE	1
#define AF_INET		2
#define AF_INET6	10

#pragma clang attribute push (__attribute__((preserve_access_index)), apply_to = record)

typedef struct {
	int counter;
} atomic_t;

typedef struct {
	atomic_t refs;
} refcount_t;

typedef struct {
	__s64 counter;
} atomic64_t;

struct hlist_node {
	struct hlist_node *next, **pprev;
};

struct timer_list {
	struct hlist_node entry;
	unsigned long expires;
};

struct in6_addr {
	union {
		__u8 u6_addr8[16];
		__be32 u6_addr32[4];
	} in6_u;
};

struct udp_table {
	unsigned int mask;
};

struct netns_ipv4 {
	/* 6.2+, commit 9804985bf27f ("udp: Introduce optional per-netns
	 * hash table.") */
	struct udp_table *udp_table;
	/* 6.7+, commit 562b1fdf061b ("tcp: Set pingpong threshold via
	 * sysctl") */
	u8 sysctl_tcp_pingpong_thresh;
};

struct net {
	u32 hash_mix;
	struct netns_ipv4 ipv4;
};

typedef struct {
	struct net *net;
} possible_net_t;

/* The real struct nests the address and port pairs in anonymous unions;
 * CO-RE finds the members through them by name. */
struct sock_common {
	__be32 skc_daddr;
	__be32 skc_rcv_saddr;
	__be16 skc_dport;
	__u16 skc_num;
	unsigned short skc_family;
	volatile unsigned char skc_state;
	possible_net_t skc_net;
	struct in6_addr skc_v6_daddr;
	struct in6_addr skc_v6_rcv_saddr;
	refcount_t skc_refcnt;
	/* kill: what inet_diag's lookup of a socket takes */
	int skc_bound_dev_if;
	atomic64_t skc_cookie;
};

struct inode {
	unsigned short i_mode;		/* umode_t */
	unsigned long i_ino;
};

/* -p: the files of tasks (iter/task_file) */
struct file {
	struct inode *f_inode;
};

struct upid {
	int nr;
	void *ns;		/* sizeof(struct upid) steps numbers[] */
};

struct pid {
	unsigned int level;
	struct upid numbers[1];
};

struct task_struct {
	int tgid;
	char comm[16];
	struct task_struct *group_leader;
	struct pid *thread_pid;
};

struct socket {
	short type;
};

struct socket_alloc {
	struct socket socket;
	struct inode vfs_inode;
};

struct numa_drop_counters {
	atomic_t drops0;
	atomic_t drops1;
};

struct sock {
	struct sock_common __sk_common;
	struct {
		atomic_t rmem_alloc;
	} sk_backlog;
	refcount_t sk_wmem_alloc;
	struct socket *sk_socket;
	u32 sk_ack_backlog;
	u32 sk_max_ack_backlog;
	struct timer_list sk_timer;
	atomic_t sk_drops;
	/* 6.17+ (commit 5d6b58c932ec, "net: lockless sock_i_ino()") */
	unsigned long sk_ino;
	/* 6.19: "tcp: remove icsk->icsk_retransmit_timer" (commit
	 * 9a5e5334adc0) moved it here */
	struct timer_list tcp_retransmit_timer;
	/* -i */
	unsigned long sk_pacing_rate;
	unsigned long sk_max_pacing_rate;
};

struct inet_sock {
	struct sock sk;
	__be16 inet_sport;
};

struct fastopen_queue {
	int max_qlen;
};

struct request_sock_queue {
	struct fastopen_queue fastopenq;
};

/* -i: only the name, reached with a probe read */
struct tcp_congestion_ops {
	char name[16];
};

struct inet_connection_sock {
	struct inet_sock icsk_inet;
	const struct tcp_congestion_ops *icsk_ca_ops;
	__u32 icsk_delack_max;
	__u32 icsk_pmtu_cookie;
	__u8 icsk_backoff;
	struct request_sock_queue icsk_accept_queue;
	struct timer_list icsk_retransmit_timer;
	__u32 icsk_rto;
	__u8 icsk_retransmits;
	__u8 icsk_pending;
	__u8 icsk_probes_out;
	struct {
		__u8 quick;
		__u8 pingpong;
		/* A u32 up to 6.6; "tcp: record last received ipv6
		 * flowlabel" (6.7, commit 95b9a87c6a6b) made it an 8-bit
		 * bitfield: read with BPF_CORE_READ_BITFIELD. */
		__u32 ato;
		__u32 lrcvtime;
		__u16 rcv_mss;
	} icsk_ack;
	/* Up to 6.14 the retransmit timer's expiry was copied here;
	 * "tcp/dccp: remove icsk->icsk_timeout" (6.15, commit
	 * a7c428ee8f59) reads the timer itself. */
	unsigned long icsk_timeout;
	/* 6.19: the keepalive timer leaves sk_timer (commit 08dfe370239e,
	 * "tcp: introduce icsk->icsk_keepalive_timer") */
	struct timer_list icsk_keepalive_timer;
};

/* -i: struct tcp_info's sources (tcp_get_info()); the same names from
 * 5.10 to 7.x.  The one-bit and few-bit fields are bitfields on every
 * kernel: read with BPF_CORE_READ_BITFIELD. */
struct tcp_options_received {
	u16 tstamp_ok;
	u16 sack_ok;
	u16 wscale_ok;
	u16 snd_wscale;
	u16 rcv_wscale;
};

struct minmax_sample {
	u32 t;
	u32 v;
};

struct minmax {
	struct minmax_sample s[3];
};

struct tcp_sock {
	struct inet_connection_sock inet_conn;
	u32 rcv_nxt;
	u32 copied_seq;
	u32 snd_una;
	u32 write_seq;
	u32 snd_cwnd;
	u32 snd_ssthresh;
	/* -i */
	u32 snd_nxt;
	u32 snd_wnd;
	u32 rcv_wnd;
	u32 mss_cache;
	u16 advmss;
	u32 srtt_us;
	u32 mdev_us;
	u32 rcv_ssthresh;
	u32 reordering;
	u32 reord_seen;
	u32 packets_out;
	u32 sacked_out;
	u32 lost_out;
	u32 retrans_out;
	u32 total_retrans;
	u32 dsack_dups;
	u32 rcv_ooopack;
	u32 lsndtime;
	u32 rcv_tstamp;
	u64 bytes_sent;
	u64 bytes_retrans;
	u64 bytes_acked;
	u64 bytes_received;
	u32 segs_out;
	u32 segs_in;
	u32 data_segs_out;
	u32 data_segs_in;
	u32 delivered;
	u32 delivered_ce;
	u32 rate_delivered;
	u32 rate_interval_us;
	u8 rate_app_limited;
	u8 ecn_flags;
	u8 syn_data_acked;
	/* 6.7+, commit 614e8316aa4c ("tcp: add support for usec
	 * resolution in TCP TS values"), tested only */
	u8 tcp_usec_ts;
	/* 6.18+, commit 542a495cbaa6 ("tcp: AccECN core"), tested only */
	u32 received_ce;
	u8 chrono_type;
	u32 chrono_start;
	u32 chrono_stat[3];
	struct minmax rtt_min;
	struct tcp_options_received rx_opt;
	struct {
		u32 rtt_us;
	} rcv_rtt_est;
	struct {
		u32 space;
	} rcvq_space;
};

struct inet_timewait_sock {
	struct sock_common __tw_common;
	unsigned char tw_substate;
	__be16 tw_sport;
	struct timer_list tw_timer;
};

struct tcp_timewait_sock {
	struct inet_timewait_sock tw_sk;
};

struct request_sock {
	struct sock_common __req_common;
	u8 num_timeout;			/* a bitfield on every kernel */
	struct timer_list rsk_timer;
	struct sock *rsk_listener;
};

struct inet_request_sock {
	struct request_sock req;
};

struct tcp_request_sock {
	struct inet_request_sock req;
};

struct udp_sock {
	struct inet_sock inet;
	int forward_deficit;
	/* 6.18+, "udp: add drop_counters to udp socket" (commit
	 * 51132b99f01c): UDP counts drops here and leaves sk_drops at 0;
	 * sk->sk_drop_counters (commit c51613fa276f) points here for every
	 * UDP socket (udp_lib_init_sock()). */
	struct numa_drop_counters drop_counters;
};

/* Exist only on kernels whose iterators take a reference on each socket
 * of a batch ("bpf: tcp: Bpf iter batching and lock_sock", 5.15, commit
 * 04c7820b776f; "bpf: udp: Implement batching for sockets iterator",
 * 6.5, commit c96dac8d369f): only their names are tested. */
struct bpf_tcp_iter_state {
	int unused;
};

struct bpf_udp_iter_state {
	int unused;
};

/* Exist only on kernels whose iterators resume a walk at the socket they
 * stopped at, by its cookie, not at a count of the sockets of its bucket
 * ("bpf: tcp: Avoid socket skips and repeats during iteration", 6.17,
 * commit f5080f612a1c, and its UDP twin, "bpf: udp: Avoid socket skips
 * and repeats during iteration", 6.16, commit 5668f73f09ae; Debian's
 * 6.12 has the TCP one, not the UDP one): only their names are
 * tested. */
union bpf_tcp_iter_batch_item {
	__u64 cookie;
};

union bpf_udp_iter_batch_item {
	__u64 cookie;
};

#pragma clang attribute pop

/* The iterators' contexts, the same since 5.8 and 5.9 (the UDP one:
 * commit 5788b3a07fc5, "net: bpf: Implement bpf iterator for udp"):
 * read at fixed offsets, no relocation. */
struct seq_file;

struct bpf_iter_meta {
	struct seq_file *seq;
	__u64 session_id;
	__u64 seq_num;
};

struct bpf_iter__tcp {
	struct bpf_iter_meta *meta;
	struct sock_common *sk_common;
	uid_t uid __attribute__((aligned(8)));
};

struct bpf_iter__udp {
	struct bpf_iter_meta *meta;
	struct udp_sock *udp_sk;
	uid_t uid __attribute__((aligned(8)));
	int bucket __attribute__((aligned(8)));
};

struct bpf_iter__task_file {
	struct bpf_iter_meta *meta;
	struct task_struct *task;
	__u32 fd __attribute__((aligned(8)));
	struct file *file;
};

#endif
