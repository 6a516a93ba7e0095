/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the TCP and UDP iterator programs share: the knobs userspace sets
 * before loading, the filter, /proc's row numbering, and the output of a
 * struct sock_rec as a binary record, as counts, or as /proc's text.
 */
#ifndef SOCKITER_BPF_H
#define SOCKITER_BPF_H

#include "kernel_types.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_endian.h>
#include "sockrec.h"

char LICENSE[] SEC("license") = "GPL";

/* Set by userspace before load (always); the verifier prunes what they
 * turn off. */
const volatile struct sockiter_config config = {};

/* SOCK_MODE_COUNT: sockets that passed the filter, by family and state. */
__u64 counts[2][SOCK_TCP_STATES];

/* Per reader (session), so that concurrent readers of a pinned iterator
 * number their rows independently. */
struct session {
	__u64 id;		/* meta->session_id */
	__u64 last_seq;		/* seq_num + 1 of the last row numbered */
	__u32 next[2];		/* next ordinal per family */
	__u32 line_len;		/* see through_memory() */
	/* The walk's netns's values, read once (a walk shows the sockets of
	 * one netns: seq_sk_match()): its UDP hash, for every UDP socket's
	 * slot (udpiter's slot()), and tcpiter's pingpong threshold. */
	__u32 udp_hash_mix, udp_mask;
	__u8 tcp_pingpong_thresh;
	__u8 netns_known;
	__u8 last_family;
	__u8 header_done;
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 64);
	__type(key, __u64);
	__type(value, struct session);
} sessions SEC(".maps");

/* A one-shot run is the only reader of its iterator: no lookup needed. */
static struct session only_session SEC(".data.session");

/* SOCK_MODE_RECORDS: the pointers of the rows written that wait for
 * their batch (write_pointers()) */
static struct {
	__u32 held;
	__u64 ptrs[SOCK_PTR_BATCH];
} pointers SEC(".data.session");

static struct session *get_session(const struct bpf_iter_meta *meta)
{
	__u64 id = meta->session_id;
	struct session *s, fresh = {};

	if (config.mode == SOCK_MODE_RECORDS) {
		/* --all-netns: one walk after another */
		if (only_session.id != id) {
			__builtin_memset(&only_session, 0, sizeof(only_session));
			only_session.id = id;
			pointers.held = 0;
		}
		return &only_session;
	}
	s = bpf_map_lookup_elem(&sessions, &id);
	if (s)
		return s;
	bpf_map_update_elem(&sessions, &id, &fresh, BPF_NOEXIST);
	return bpf_map_lookup_elem(&sessions, &id);
}

static void read_addrs(struct sock_rec *r, const struct sock_common *skc)
{
	if (r->family == SOCK_FAMILY_V4) {
		r->src[0] = skc->skc_rcv_saddr;
		r->dst[0] = skc->skc_daddr;
		return;
	}
	for (int i = 0; i < 4; i++) {
		r->src[i] = skc->skc_v6_rcv_saddr.in6_u.u6_addr32[i];
		r->dst[i] = skc->skc_v6_daddr.in6_u.u6_addr32[i];
	}
}

/* addr (as IPv6, IPv4 mapped) & mask == net */
static bool addr_match(const struct sock_rec *r, const __u32 *addr,
		       const volatile __u32 *net, const volatile __u32 *mask,
		       bool v6_only)
{
	__u32 v6[4] = { 0, 0, bpf_htonl(0xffff), addr[0] };
	const __u32 *a = r->family == SOCK_FAMILY_V4 ? v6 : addr;

	if (v6_only && r->family == SOCK_FAMILY_V4)
		return false;
	/* no prefix: the verifier drops the loop, once per path less */
	if (!(mask[0] | mask[1] | mask[2] | mask[3]))
		return true;
	for (int i = 0; i < 4; i++)
		if ((a[i] & mask[i]) != net[i])
			return false;
	return true;
}

/* The filter's ports and owner: TCP checks them on sock_common, before
 * the record is built, that most sockets of a narrow query never need. */
static bool ports_match(__u16 sport, __u16 dport, __u32 uid)
{
	const volatile struct sockiter_filter *f = &config.filter;

	return (f->sport < 0 || sport == f->sport) &&
	       (f->dport < 0 || dport == f->dport) &&
	       (f->uid < 0 || uid == f->uid);
}

/* The rest of the filter: the state as /proc shows it, the addresses. */
static bool rec_match(const struct sock_rec *r)
{
	const volatile struct sockiter_filter *f = &config.filter;

	if (f->states && !(f->states & (1U << (r->state & 31))))
		return false;
	return addr_match(r, r->src, f->src, f->src_mask, f->src_v6) &&
	       addr_match(r, r->dst, f->dst, f->dst_mask, f->dst_v6);
}

/* sock_i_ino(): 6.17 keeps the inode number in the sock itself (commit
 * 5d6b58c932ec, "net: lockless sock_i_ino()"). */
static __u64 sock_inode(const struct sock *sk)
{
	struct socket_alloc *sa;
	unsigned long ino = 0;

	if (bpf_core_field_exists(sk->sk_ino))
		return sk->sk_ino;
	/* vfs_inode lies past struct socket: not a direct BTF access. */
	sa = (void *)sk->sk_socket;
	if (sa)
		bpf_core_read(&ino, sizeof(ino), &sa->vfs_inode.i_ino);
	return ino;
}

/* ---- /proc's text, for pinned iterators ---- */

#define SPACES16 "                "
static const char spaces[] = SPACES16 SPACES16 SPACES16 SPACES16 SPACES16
			     SPACES16 SPACES16 SPACES16 SPACES16 SPACES16;

/*
 * n through the session's memory (a map value): the verifier then knows
 * it only as a scalar in bounds, so the paths that computed it merge.
 * Kept exact, a digit count's 20 values multiplied across a row's numbers
 * (clang 19 counts the digits in the loop's own counter, which the
 * verifier keeps precise) passed the verifier's 1M instructions:
 * "BPF program is too large".
 */
static __u32 through_memory(struct session *s, __u32 n)
{
	s->line_len = n;
	return *(volatile __u32 *)&s->line_len;
}

static __u32 dec_len(struct session *s, __u64 v)
{
	__u32 n = 1;

	for (int i = 0; i < 20 && v >= 10; i++, n++)
		v /= 10;
	return through_memory(s, n);
}

static __u32 sdec_len(struct session *s, __s64 v)
{
	return v < 0 ? 1 + dec_len(s, -v) : dec_len(s, v);
}

static __u32 hex_len(struct session *s, __u64 v, __u32 min)
{
	__u32 n = 1;

	for (int i = 0; i < 16 && v >= 16; i++, n++)
		v >>= 4;
	return through_memory(s, n > min ? n : min);
}

static __u32 max_u32(__u32 a, __u32 b)
{
	return a > b ? a : b;
}

/*
 * Ends a line of `len` characters with /proc's seq_pad() to `width`.  The
 * length goes through memory so that the verifier does not track its
 * exact value back through every digit count (a path explosion).
 */
static void end_line(struct seq_file *seq, struct session *s, __u32 len,
		     __u32 width)
{
	__u32 pad;

	len = through_memory(s, len);
	pad = width > len ? width - len : 0;

	if (pad > 0 && pad < sizeof(spaces))
		bpf_seq_write(seq, spaces, pad);
	bpf_seq_write(seq, "\n", 1);
}

/* The first line of a session: the table's header. */
static void text_header(struct seq_file *seq, struct session *s,
			const char *v4, __u32 v4_len, __u32 v4_width,
			const char *v6, __u32 v6_len)
{
	if (s->header_done)
		return;
	s->header_done = 1;
	if (config.filter.families & (1 << SOCK_FAMILY_V4)) {
		bpf_seq_write(seq, v4, v4_len);
		end_line(seq, s, v4_len, v4_width);
	} else {
		bpf_seq_write(seq, v6, v6_len);
		end_line(seq, s, v6_len, 0);
	}
}

/*
 * One /proc row up to its pointer: sl, the addresses and the columns
 * every row has; the caller writes the protocol's columns after.  Returns
 * the length written so far, for padding.
 */
static __u32 text_head(struct seq_file *seq, struct session *s,
		       const struct sock_rec *r, const void *ptr,
		       __u32 sl_width)
{
	__u32 len;

	if (sl_width == PROC_TCP_SL_WIDTH)
		BPF_SEQ_PRINTF(seq, "%4d: ", r->sl);
	else
		BPF_SEQ_PRINTF(seq, "%5d: ", r->sl);
	len = max_u32(dec_len(s, r->sl), sl_width) + 2;
	if (r->family == SOCK_FAMILY_V4) {
		BPF_SEQ_PRINTF(seq, "%08X:%04X %08X:%04X ",
			       r->src[0], r->sport, r->dst[0], r->dport);
		len += 28;
	} else {
		BPF_SEQ_PRINTF(seq, "%08X%08X%08X%08X:%04X ", r->src[0],
			       r->src[1], r->src[2], r->src[3], r->sport);
		BPF_SEQ_PRINTF(seq, "%08X%08X%08X%08X:%04X ", r->dst[0],
			       r->dst[1], r->dst[2], r->dst[3], r->dport);
		len += 2 * 38;
	}
	BPF_SEQ_PRINTF(seq, "%02X %08X:%08X %02X:%08lX %08X %5u %8d %lu %d %pK",
		       r->state, r->tx_queue, r->rx_queue, r->timer, r->when,
		       r->retransmits, r->uid, r->probes, r->inode, r->refcnt,
		       ptr);
	/* That format's length, field by field; the pointer is 16 hex
	 * digits on a 64-bit kernel. */
	return len + 3 +			/* "%02X " */
	       18 +				/* "%08X:%08X " */
	       3 + hex_len(s, r->when, 8) + 1 +	/* "%02X:%08lX " */
	       8 + 1 +				/* "%08X " */
	       max_u32(dec_len(s, r->uid), 5) + 1 +	/* "%5u " */
	       8 + 1 +				/* "%8d " (probes, a u8) */
	       dec_len(s, r->inode) + 1 +		/* "%lu " */
	       sdec_len(s, (__s32)r->refcnt) + 1 +	/* "%d " */
	       16;				/* "%pK" */
}

/* ---- records ---- */

static const struct sock_rec pointers_head = { .kind = SOCK_KIND_POINTERS };
/* back to back: a separator costs bstr_printf() a format_decode() more
 * a pointer (sockrec.h says how they are split) */
static const char pointers_format[] =
	"%pK%pK%pK%pK%pK%pK%pK%pK%pK%pK%pK%pK\n";

/*
 * The pointers held, as /proc hashes them ("%pK": userspace cannot), in
 * a record of kind SOCK_KIND_POINTERS: one bpf_seq_printf() a batch
 * costs less than one a row (README, "How it works").  Returns nonzero
 * when the read's buffer was full: the kernel then drops all this run of
 * the program wrote, and runs it again on the same socket in the next
 * read().  So the caller lets them go
 * (pointers.held = 0) only once all its writes are in.
 */
static long write_pointers(struct seq_file *seq)
{
	long err;

	if (!pointers.held)
		return 0;
	err = bpf_seq_write(seq, (void *)&pointers_head, SOCK_REC_TCP_OWN);
	return err | bpf_seq_printf(seq, pointers_format,
				    sizeof(pointers_format), pointers.ptrs,
				    sizeof(pointers.ptrs));
}

/* ptr held for its batch, written once the batch is full */
static long hold_pointer(struct seq_file *seq, const void *ptr)
{
	__u32 n = pointers.held;
	long err;

	if (n >= SOCK_PTR_BATCH)	/* for the verifier: written at 12 */
		return -1;
	pointers.ptrs[n] = (unsigned long)ptr;
	pointers.held = n + 1;
	if (n + 1 < SOCK_PTR_BATCH)
		return 0;
	err = write_pointers(seq);
	pointers.held = err ? n : 0;
	return err;
}

static const struct sock_rec end_record = { .kind = SOCK_KIND_END };

/* The end of the walk (or of the listeners): the last pointers, then a
 * record that says so. */
static void write_end(struct seq_file *seq)
{
	long err = write_pointers(seq);

	err |= bpf_seq_write(seq, (void *)&end_record, SOCK_REC_TCP_OWN);
	if (!err)
		pointers.held = 0;
}

/* A record in its written form (sockrec.h), then info (-i, full TCP
 * sockets), then kill (kill); its pointer held for the next batch.
 * Returns nonzero when the read's buffer was full: the kernel shows the
 * socket again in the next read(). */
static __always_inline long emit_record(struct seq_file *seq,
					struct sock_rec *r, const void *ptr,
					bool tcp, const struct sock_info *info,
					const struct sock_kill *kill)
{
	bool v4 = r->family == SOCK_FAMILY_V4;
	long err;

	if (v4)
		r->src[1] = r->dst[0];
	if (tcp) {	/* TCP's fields run into the addresses: one write */
		err = bpf_seq_write(seq, r, SOCK_REC_ADDRS +
				    (v4 ? SOCK_REC_ADDR_SIZE(SOCK_FAMILY_V4) :
					  SOCK_REC_ADDR_SIZE(SOCK_FAMILY_V6)));
	} else {
		err = bpf_seq_write(seq, r, SOCK_REC_TCP_OWN);
		err |= bpf_seq_write(seq, r->src,
				     v4 ? SOCK_REC_ADDR_SIZE(SOCK_FAMILY_V4) :
					  SOCK_REC_ADDR_SIZE(SOCK_FAMILY_V6));
	}
	if (info)
		err |= bpf_seq_write(seq, (void *)info, sizeof(*info));
	if (kill)
		err |= bpf_seq_write(seq, (void *)kill, sizeof(*kill));
	if (config.want_pointer && !err)
		err = hold_pointer(seq, ptr);
	return err;
}

/* ---- kill ---- */

struct sock_kill_state kill_state;

#ifdef SOCK_KILL_KFUNC
/* Linux 6.5, commit 4ddbcb886268.  Only in the kill objects (tcpkill,
 * udpkill): a program that names a kfunc does not load on the kernels
 * before. */
extern int bpf_sock_destroy(struct sock_common *sk) __ksym;

/* Marks the sockets this run closed, so that a later pass, for sockets
 * an earlier one skipped (applets/sock/sockrun.c), does not close one
 * twice: UDP sockets stay in the table after. */
struct {
	__uint(type, BPF_MAP_TYPE_SK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, __u64);
} killed SEC(".maps");

/* sk, full, closed with the kfunc: the iterator holds its lock here.
 * Request and TIME_WAIT sockets are not full sockets, whose fields the
 * kfunc reads: inet_diag closes them.  False: an earlier pass did. */
static bool kill_sock(struct sock_kill *k, struct sock_common *skc,
		      struct sock *sk)
{
	__u64 *mark;

	kill_state.exact_resume = bpf_core_type_exists(SOCK_BATCH_ITEM);
	k->ifindex = skc->skc_bound_dev_if;
	k->cookie = bpf_get_socket_cookie(skc);
	k->err = SOCK_KILL_NETLINK;
	if (!sk)
		return true;
	/* No mark to be had (riscv64's 7.2 answers NULL to every one, its
	 * JIT on): inet_diag closes it after the walk, as before 6.5, and
	 * this walk is the last (applets/sock/sockrun.c). */
	mark = bpf_sk_storage_get(&killed, sk, 0, BPF_SK_STORAGE_GET_F_CREATE);
	if (!mark) {
		kill_state.unmarked++;
		return true;
	}
	if (*mark == kill_state.run)
		return false;
	*mark = kill_state.run;
	k->err = bpf_sock_destroy(skc);
	return true;
}
#else
/* Kernels before 6.5 (commit 4ddbcb886268): userspace closes every socket
 * through inet_diag, after the walk.  A cookie still 0 has never been asked
 * for. */
static bool kill_sock(struct sock_kill *k, struct sock_common *skc,
		      struct sock *sk)
{
	(void)sk;
	k->ifindex = skc->skc_bound_dev_if;
	k->cookie = skc->skc_cookie.counter;
	k->err = SOCK_KILL_NETLINK;
	return true;
}
#endif

/* The record of a socket kill_sock() saw, written.  A closed socket is
 * not shown again: one whose record did not fit is counted. */
static void emit_killed(long write_err, const struct sock_kill *k)
{
	if (write_err && !k->err)
		kill_state.unlisted++;
}

static void count(const struct sock_rec *r)
{
	__u64 *c = &counts[r->family & 1][r->state & SOCK_STATE_MASK];

	*c += 1;
}

#endif
