// SPDX-License-Identifier: GPL-2.0
/*
 * udpiter: every UDP socket of a network namespace, IPv4 and IPv6, with
 * the fields of /proc/net/udp and udp6 (net/ipv4/udp.c udp4_format_sock(),
 * net/ipv6/datagram.c __ip6_dgram_sock_seq_show()).
 */
/* kill: the type whose presence says a walk resumes exactly */
#define SOCK_BATCH_ITEM union bpf_udp_iter_batch_item
#include "sockiter.bpf.h"

static const char header4[] = PROC_UDP_HEADER4;
static const char header6[] = PROC_UDP_HEADER6;

/*
 * Loading a pointer from the iterator's (trusted) socket costs the 6.x
 * verifier searches of the kernel's BTF by name (README, "Loading"): the
 * pointers followed here are read with bpf_probe_read_kernel() instead
 * (BPF_CORE_READ).
 */
/*
 * /proc's sl is the socket's slot in the port hash.  From 6.5 (commit
 * c96dac8d369f, "bpf: udp: Implement batching for sockets iterator") the
 * iterator walks the
 * address+port hash instead and ctx->bucket is a slot there: recompute
 * udp_hashfn().  The per-netns table came with 6.2 (commit 9804985bf27f,
 * "udp: Introduce optional per-netns hash table."), before that.
 */
static __u32 slot(const struct bpf_iter__udp *ctx, const struct sock *sk,
		  struct session *s)
{
	const struct net *net;

	if (!bpf_core_type_exists(struct bpf_udp_iter_state))
		return ctx->bucket;
	if (!s->netns_known) {
		net = BPF_CORE_READ(sk, __sk_common.skc_net.net);
		s->udp_hash_mix = BPF_CORE_READ(net, hash_mix);
		s->udp_mask = BPF_CORE_READ(net, ipv4.udp_table, mask);
		s->netns_known = 1;
	}
	return (sk->__sk_common.skc_num + s->udp_hash_mix) & s->udp_mask;
}

/* sk_drops_read(): from 6.18 UDP's drops are the udp_sock's per NUMA node
 * counters (kernel_types.h), read there, not through sk_drop_counters:
 * plain loads, neither probe reads nor a pointer for the verifier. */
static __u32 drops(const struct udp_sock *up)
{
	if (bpf_core_field_exists(up->drop_counters))
		return up->drop_counters.drops0.counter +
		       up->drop_counters.drops1.counter;
	return up->inet.sk.sk_drops.counter;
}

/* s: NULL when counting, which shows no slot */
static void read_udp(struct sock_rec *r, const struct bpf_iter__udp *ctx,
		     struct udp_sock *up, struct session *s)
{
	struct sock *sk = &up->inet.sk;
	__u32 refs = sk->__sk_common.skc_refcnt.refs.counter;

	r->kind = SOCK_KIND_FULL;
	if (s)
		r->sl = slot(ctx, sk, s);
	r->state = sk->__sk_common.skc_state;
	r->uid = ctx->uid;
	read_addrs(r, &sk->__sk_common);
	r->sport = bpf_ntohs(up->inet.inet_sport);
	r->dport = bpf_ntohs(sk->__sk_common.skc_dport);
	r->tx_queue = sk->sk_wmem_alloc.refs.counter - 1;
	r->rx_queue = sk->sk_backlog.rmem_alloc.counter - up->forward_deficit;
	r->inode = sock_inode(sk);
	/* The batching iterator (6.5+, commit c96dac8d369f) holds a reference
	 * /proc does not. */
	r->refcnt = bpf_core_type_exists(struct bpf_udp_iter_state) ?
		    refs - 1 : refs;
	r->drops = drops(up);
}

SEC("iter/udp")
int udp_iter(struct bpf_iter__udp *ctx)
{
	struct seq_file *seq = ctx->meta->seq;
	struct udp_sock *up = ctx->udp_sk;
	struct sock_kill k, *kill = NULL;
	struct sock_rec r = {};
	struct session *s = NULL;
	__u32 skip = PROC_UDP_HEADER4_SKIP(config.udp_header_wide), len;
	long err;

	if (config.mode != SOCK_MODE_COUNT) {
		s = get_session(ctx->meta);
		if (!s)
			return 0;
	}
	if (config.mode == SOCK_MODE_TEXT)
		text_header(seq, s, header4 + skip, sizeof(header4) - 1 - skip,
			    PROC_UDP_WIDTH4, header6, sizeof(header6) - 1);
	if (!up) {	/* the end of the walk */
		if (config.mode == SOCK_MODE_RECORDS)
			write_end(seq);
		return 0;
	}
	r.family = up->inet.sk.__sk_common.skc_family == AF_INET6 ?
		   SOCK_FAMILY_V6 : SOCK_FAMILY_V4;
	if (!(config.filter.families & (1 << r.family)))
		return 0;
	read_udp(&r, ctx, up, s);
	if (!ports_match(r.sport, r.dport, r.uid) || !rec_match(&r))
		return 0;

	if (config.mode == SOCK_MODE_COUNT) {
		count(&r);
		return 0;
	}
	if (config.mode == SOCK_MODE_TEXT) {
		len = text_head(seq, s, &r, up, PROC_UDP_SL_WIDTH);
		BPF_SEQ_PRINTF(seq, " %u", r.drops);
		end_line(seq, s, len + 1 + dec_len(s, r.drops),
			 r.family == SOCK_FAMILY_V4 ? PROC_UDP_WIDTH4 : 0);
		return 0;
	}
	if (config.want_kill) {
		if (!kill_sock(&k, (struct sock_common *)up, &up->inet.sk))
			return 0;
		kill = &k;
	}
	err = emit_record(seq, &r, up, false, NULL, kill);
	if (kill)
		emit_killed(err, kill);
	return 0;
}
