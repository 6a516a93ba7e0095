// SPDX-License-Identifier: GPL-2.0
/*
 * tcpiter: every TCP socket of a network namespace, full, TIME_WAIT and
 * request sockets, IPv4 and IPv6, with the fields of /proc/net/tcp and
 * tcp6 (net/ipv4/tcp_ipv4.c get_tcp4_sock(), get_timewait4_sock(),
 * get_openreq4(); net/ipv6/tcp_ipv6.c likewise).
 */
/* kill: the type whose presence says a walk resumes exactly */
#define SOCK_BATCH_ITEM union bpf_tcp_iter_batch_item
#include "sockiter.bpf.h"

#define ICSK_TIME_RETRANS	1
#define ICSK_TIME_PROBE0	3
#define ICSK_TIME_LOSS_PROBE	5
#define ICSK_TIME_REO_TIMEOUT	6

/*
 * tcpiter_lean.bpf.c builds this program without pin's /proc text and
 * -i's reads, for every other query: the kernel applies the CO-RE
 * relocations of code the verifier then finds dead too, and those of -i
 * and the text slow every load (README, "Loading").
 */
#ifdef TCPITER_LEAN
#define want_text()	false
#define want_info()	false
#else
#define want_text()	(config.mode == SOCK_MODE_TEXT)
#define want_info()	config.want_info
#endif

static const char header4[] = PROC_TCP_HEADER4;
static const char header6[] = PROC_TCP_HEADER6;

/*
 * /proc/net/tcp's sl: the row's ordinal within its family.  A row that
 * did not fit the 32 KiB read buffer is shown again by the next read(),
 * with the same seq_num: take its number back first.
 */
static __u32 ordinal(struct session *s, __u64 seq_num, int family)
{
	if (s->last_seq == seq_num + 1)
		s->next[s->last_family & 1]--;
	s->last_seq = seq_num + 1;
	s->last_family = family;
	return s->next[family & 1]++;
}

static long timer_delta(unsigned long expires)
{
	return jiffies_delta_to_clock_t(expires - bpf_jiffies64(), config.hz);
}

/* Batching kernels (5.15+, commit 04c7820b776f) hold a reference on every
 * socket of the batch while the program runs: /proc does not see it. */
static __u32 refcnt(const struct sock_common *skc)
{
	__u32 refs = skc->skc_refcnt.refs.counter;

	return bpf_core_type_exists(struct bpf_tcp_iter_state) ? refs - 1 : refs;
}

/* icsk_timeout(): the retransmit (or zero window probe) timer's expiry. */
static unsigned long retransmit_expires(struct inet_connection_sock *icsk)
{
	if (bpf_core_field_exists(icsk->icsk_inet.sk.tcp_retransmit_timer))
		return icsk->icsk_inet.sk.tcp_retransmit_timer.expires;
	if (bpf_core_field_exists(icsk->icsk_timeout))
		return icsk->icsk_timeout;
	return icsk->icsk_retransmit_timer.expires;
}

/* Whether the keepalive timer is pending, and its expiry: sk_timer until
 * "tcp: introduce icsk->icsk_keepalive_timer" (6.19, commit 08dfe370239e),
 * which Debian's 6.1 and 6.12 carry too: the field, not the version,
 * tells. */
static bool keepalive_pending(struct inet_connection_sock *icsk,
			      unsigned long *expires)
{
	if (bpf_core_field_exists(icsk->icsk_keepalive_timer)) {
		*expires = icsk->icsk_keepalive_timer.expires;
		return icsk->icsk_keepalive_timer.entry.pprev;
	}
	*expires = icsk->icsk_inet.sk.sk_timer.expires;
	return icsk->icsk_inet.sk.sk_timer.entry.pprev;
}

/* inet_csk_in_pingpong_mode(): the threshold is 1 since 5.19 (and 5.10
 * stable; commit 4d8f24eeedc5, Revert "tcp: change pingpong threshold to
 * 3"), a per-netns sysctl since "tcp: Set pingpong threshold via sysctl"
 * (6.7, commit 562b1fdf061b), read once a walk. */
static __u32 pingpong(struct tcp_sock *tp, struct session *s)
{
	struct inet_connection_sock *icsk = &tp->inet_conn;

	if (!s->netns_known) {
		s->tcp_pingpong_thresh = 1;
		if (bpf_core_field_exists(struct net,
					  ipv4.sysctl_tcp_pingpong_thresh))
			s->tcp_pingpong_thresh = icsk->icsk_inet.sk.__sk_common
				.skc_net.net->ipv4.sysctl_tcp_pingpong_thresh;
		s->netns_known = 1;
	}
	return icsk->icsk_ack.pingpong >= s->tcp_pingpong_thresh;
}

static void read_full(struct sock_rec *r, struct tcp_sock *tp,
		      struct session *s)
{
	struct inet_connection_sock *icsk = &tp->inet_conn;
	struct sock *sk = &icsk->icsk_inet.sk;
	__u8 pending = icsk->icsk_pending;
	unsigned long keepalive;
	__s32 rx;

	if (pending == ICSK_TIME_RETRANS || pending == ICSK_TIME_REO_TIMEOUT ||
	    pending == ICSK_TIME_LOSS_PROBE || pending == ICSK_TIME_PROBE0) {
		r->timer = pending == ICSK_TIME_PROBE0 ? SOCK_TIMER_PROBE0 :
			   SOCK_TIMER_RETRANSMIT;
		r->when = timer_delta(retransmit_expires(icsk));
	} else if (keepalive_pending(icsk, &keepalive)) {
		r->timer = SOCK_TIMER_KEEPALIVE;
		r->when = timer_delta(keepalive);
	}
	r->tx_queue = tp->write_seq - tp->snd_una;
	rx = tp->rcv_nxt - tp->copied_seq;
	r->rx_queue = r->state == SOCK_ST_LISTEN ? sk->sk_ack_backlog :
		      rx > 0 ? rx : 0;
	r->retransmits = icsk->icsk_retransmits;
	r->probes = icsk->icsk_probes_out;
	r->inode = sock_inode(sk);
	r->refcnt = refcnt(&sk->__sk_common);
	r->rto = jiffies_to_clock_t(icsk->icsk_rto, config.hz);
	r->ato = jiffies_to_clock_t(BPF_CORE_READ_BITFIELD(icsk,
					icsk_ack.ato), config.hz);
	r->quick_pingpong = (icsk->icsk_ack.quick << 1) | pingpong(tp, s);
	r->cwnd = tp->snd_cwnd;
	if (r->state == SOCK_ST_LISTEN) {
		r->ssthresh = icsk->icsk_accept_queue.fastopenq.max_qlen;
		r->max_backlog = sk->sk_max_ack_backlog;
	} else if (tp->snd_ssthresh >= SOCK_INFINITE_SSTHRESH)
		r->ssthresh = -1;
	else
		r->ssthresh = tp->snd_ssthresh;
}

/* ---- -i: tcp_get_info()'s fields ---- */

/* TCP_ECN_OK is TCP_ECN_MODE_RFC3168 and 16 TCP_ECN_MODE_ACCECN from 6.15
 * ("tcp: helpers for ECN mode handling", commit 041fb11d518f); AccECN is
 * negotiated from 6.18 (commit 3cae34274c79).  The TCP_ECN_LOW of
 * Google's BBRv3 patches is not in mainline. */
#define TCP_ECN_OK		1
#define TCP_ECN_SEEN		8
#define TCP_ECN_MODE_ACCECN	16
#define TCP_CHRONO_BUSY		1
#define TCP_CHRONO_MAX		4

/* tcp_compute_delivery_rate(): bytes a second */
static __u64 delivery_rate(struct tcp_sock *tp)
{
	__u32 rate = tp->rate_delivered, intv = tp->rate_interval_us;

	if (!rate || !intv)
		return 0;
	return (__u64)rate * tp->mss_cache * 1000000 / intv;
}

/* tcp_get_info_chrono_stats(): busy time, and the time limited by the
 * peer's window and by the send buffer, in us */
static void read_chrono(struct sock_info *in, struct tcp_sock *tp)
{
	__u32 type = BPF_CORE_READ_BITFIELD(tp, chrono_type);
	__u32 now = bpf_jiffies64();
	__u64 stat, us = 1000000 / config.hz;

	for (int i = TCP_CHRONO_BUSY; i < TCP_CHRONO_MAX; i++) {
		stat = tp->chrono_stat[i - 1];
		if (i == type)
			stat += (__u32)(now - tp->chrono_start);
		stat *= us;
		in->busy_time += stat;
		if (i == TCP_CHRONO_BUSY + 1)
			in->rwnd_limited = stat;
		else if (i == TCP_CHRONO_BUSY + 2)
			in->sndbuf_limited = stat;
	}
}

static __u32 msecs_since(__u32 now, __u32 then)
{
	return sock_jiffies_to_msecs(now - then, config.hz);
}

/* ECN is on: RFC 3168's, or from 6.18 (AccECN, with received_ce: commit
 * 542a495cbaa6, "tcp: AccECN core") accurate ECN's too:
 * tcp_ecn_mode_any() */
static bool ecn_on(struct tcp_sock *tp)
{
	__u8 ecn = BPF_CORE_READ_BITFIELD(tp, ecn_flags);

	if (bpf_core_field_exists(tp->received_ce))
		return ecn & (TCP_ECN_OK | TCP_ECN_MODE_ACCECN);
	return ecn & TCP_ECN_OK;
}

static __u8 read_options(struct sock_info *in, struct tcp_sock *tp)
{
	__u8 ecn = BPF_CORE_READ_BITFIELD(tp, ecn_flags), o = 0;

	if (BPF_CORE_READ_BITFIELD(tp, rx_opt.tstamp_ok))
		o |= SOCK_OPT_TS;
	if (BPF_CORE_READ_BITFIELD(tp, rx_opt.sack_ok))
		o |= SOCK_OPT_SACK;
	if (BPF_CORE_READ_BITFIELD(tp, rx_opt.wscale_ok)) {
		o |= SOCK_OPT_WSCALE;
		in->snd_wscale = BPF_CORE_READ_BITFIELD(tp, rx_opt.snd_wscale);
		in->rcv_wscale = BPF_CORE_READ_BITFIELD(tp, rx_opt.rcv_wscale);
	}
	if (ecn_on(tp))
		o |= SOCK_OPT_ECN;
	if (ecn & TCP_ECN_SEEN)
		o |= SOCK_OPT_ECN_SEEN;
	if (BPF_CORE_READ_BITFIELD(tp, syn_data_acked))
		o |= SOCK_OPT_SYN_DATA;
	return o;
}

/* What tcp_get_info() reports for every state, listeners included. */
static void read_info_common(struct sock_info *in, struct tcp_sock *tp)
{
	struct inet_connection_sock *icsk = &tp->inet_conn;
	struct sock *sk = &icsk->icsk_inet.sk;
	const struct tcp_congestion_ops *ca = NULL;
	unsigned long rate;

	/* a pointer loaded from the socket would cost the verifier a
	 * search of the BTF by name: a probe read, as udpiter's */
	bpf_core_read(&ca, sizeof(ca), &icsk->icsk_ca_ops);
	if (ca)
		bpf_core_read_str(in->cong, sizeof(in->cong), &ca->name);
	rate = sk->sk_pacing_rate;
	in->pacing_rate = rate != ~0UL ? rate : SOCK_INFO_NONE;
	rate = sk->sk_max_pacing_rate;
	in->max_pacing_rate = rate != ~0UL ? rate : SOCK_INFO_NONE;
	in->reordering = tp->reordering;
	in->cwnd = tp->snd_cwnd;
}

/*
 * The delayed ACK timeout in jiffies.  From 6.7 ("tcp: derive delack_max
 * from rto_min", commit bbf80d713fe7, which came with tcp_usec_ts; 6.6
 * stable took it too, without tcp_usec_ts) tcp_get_info() caps it at
 * the socket's delack_max.  A route's locked rto_min lowers that cap
 * further there; that route metric is not read here.
 */
static __u32 reported_ato(struct inet_connection_sock *icsk,
			  struct tcp_sock *tp)
{
	__u32 ato = BPF_CORE_READ_BITFIELD(icsk, icsk_ack.ato);

	if (bpf_core_field_exists(tp->tcp_usec_ts) &&
	    bpf_core_field_exists(icsk->icsk_delack_max) &&
	    ato > icsk->icsk_delack_max)
		ato = icsk->icsk_delack_max;
	return ato;
}

static void read_info_times(struct sock_info *in, struct tcp_sock *tp)
{
	struct inet_connection_sock *icsk = &tp->inet_conn;
	__u32 now = bpf_jiffies64();

	in->rto = sock_jiffies_to_usecs(icsk->icsk_rto, config.hz);
	in->ato = sock_jiffies_to_usecs(reported_ato(icsk, tp), config.hz);
	in->rtt = tp->srtt_us >> 3;
	in->rttvar = tp->mdev_us >> 2;
	in->rcv_rtt = tp->rcv_rtt_est.rtt_us >> 3;
	in->min_rtt = tp->rtt_min.s[0].v;
	in->last_data_sent = msecs_since(now, tp->lsndtime);
	in->last_data_recv = msecs_since(now, icsk->icsk_ack.lrcvtime);
	in->last_ack_recv = msecs_since(now, tp->rcv_tstamp);
	read_chrono(in, tp);
}

static void read_info_counts(struct sock_info *in, struct tcp_sock *tp)
{
	__s32 notsent = tp->write_seq - tp->snd_nxt;

	in->bytes_sent = tp->bytes_sent;
	in->bytes_retrans = tp->bytes_retrans;
	in->bytes_acked = tp->bytes_acked;
	in->bytes_received = tp->bytes_received;
	in->segs_out = tp->segs_out;
	in->segs_in = tp->segs_in;
	in->data_segs_out = tp->data_segs_out;
	in->data_segs_in = tp->data_segs_in;
	in->delivered = tp->delivered;
	in->delivered_ce = tp->delivered_ce;
	in->delivery_rate = delivery_rate(tp);
	in->app_limited = BPF_CORE_READ_BITFIELD(tp, rate_app_limited) != 0;
	in->unacked = tp->packets_out;
	in->sacked = tp->sacked_out;
	in->lost = tp->lost_out;
	in->retrans = tp->retrans_out;
	in->total_retrans = tp->total_retrans;
	in->reord_seen = tp->reord_seen;
	in->dsack_dups = tp->dsack_dups;
	in->rcv_ooopack = tp->rcv_ooopack;
	in->notsent = notsent > 0 ? notsent : 0;
}

/* tcp_get_info(), for a full socket in state */
static void read_info(struct sock_info *in, struct tcp_sock *tp, __u8 state)
{
	struct inet_connection_sock *icsk = &tp->inet_conn;
	struct sock *sk = &icsk->icsk_inet.sk;

	read_info_common(in, tp);
	if (state == SOCK_ST_LISTEN) {
		in->unacked = sk->sk_ack_backlog;
		in->sacked = sk->sk_max_ack_backlog;
		return;
	}
	in->options = read_options(in, tp);
	in->backoff = icsk->icsk_backoff;
	in->snd_mss = tp->mss_cache;
	in->rcv_mss = icsk->icsk_ack.rcv_mss;
	in->pmtu = icsk->icsk_pmtu_cookie;
	in->advmss = tp->advmss;
	in->ssthresh = tp->snd_ssthresh;
	in->rcv_ssthresh = tp->rcv_ssthresh;
	in->rcv_space = tp->rcvq_space.space;
	in->snd_wnd = tp->snd_wnd;
	in->rcv_wnd = tp->rcv_wnd;
	read_info_times(in, tp);
	read_info_counts(in, tp);
}

/* A full socket's record with its struct sock_info (-i). */
static long emit_with_info(struct seq_file *seq, struct sock_rec *r,
			   const void *ptr, struct tcp_sock *tp,
			   const struct sock_kill *kill)
{
	struct sock_info in = {};

	read_info(&in, tp, r->state);
	return emit_record(seq, r, ptr, true, &in, kill);
}

static void read_timewait(struct sock_rec *r, struct inet_timewait_sock *tw)
{
	r->kind = SOCK_KIND_TIMEWAIT;
	r->state = tw->tw_substate;
	r->timer = SOCK_TIMER_TIMEWAIT;
	r->when = timer_delta(tw->tw_timer.expires);
	r->refcnt = refcnt(&tw->__tw_common);
}

static void read_request(struct sock_rec *r, struct request_sock *req)
{
	r->kind = SOCK_KIND_REQUEST;
	r->state = SOCK_ST_SYN_RECV;
	r->timer = SOCK_TIMER_RETRANSMIT;
	r->when = timer_delta(req->rsk_timer.expires);
	r->retransmits = BPF_CORE_READ_BITFIELD(req, num_timeout);
}

static void print_text(struct seq_file *seq, struct session *s,
		       const struct sock_rec *r, const void *ptr)
{
	__u32 len = text_head(seq, s, r, ptr, PROC_TCP_SL_WIDTH);

	if (r->kind == SOCK_KIND_FULL) {
		BPF_SEQ_PRINTF(seq, " %lu %lu %u %u %d", r->rto, r->ato,
			       r->quick_pingpong, r->cwnd, r->ssthresh);
		len += 5 + dec_len(s, r->rto) + dec_len(s, r->ato) +
		       dec_len(s, r->quick_pingpong) + dec_len(s, r->cwnd) +
		       sdec_len(s, r->ssthresh);
	}
	end_line(seq, s, len,
		 r->family == SOCK_FAMILY_V4 ? PROC_TCP_WIDTH4 : 0);
}

/* The socket's record, from its kind on: the filter's ports and owner
 * have passed. */
static int show_sock(struct seq_file *seq, struct session *s,
		     struct sock_common *skc, __u8 family, __u32 sl, __u32 uid)
{
	struct tcp_timewait_sock *tw;
	struct tcp_request_sock *req;
	struct tcp_sock *tp = NULL;
	struct sock_kill k, *kill = NULL;
	struct sock_rec r = {};
	long err;

	r.family = family;
	r.sl = sl;
	read_addrs(&r, skc);
	r.sport = skc->skc_num;
	r.dport = bpf_ntohs(skc->skc_dport);
	r.state = skc->skc_state;
	r.uid = uid;
	/* The TCP structs begin with the generic ones: casts, not member
	 * accesses, that would each be a struct for libbpf to look up. */
	if (r.state == SOCK_ST_TIME_WAIT) {
		tw = bpf_skc_to_tcp_timewait_sock(skc);
		if (!tw)
			return 0;
		read_timewait(&r, (struct inet_timewait_sock *)tw);
	} else if (r.state == SOCK_ST_NEW_SYN_RECV) {
		req = bpf_skc_to_tcp_request_sock(skc);
		if (!req)
			return 0;
		read_request(&r, (struct request_sock *)req);
	} else {
		r.kind = SOCK_KIND_FULL;
	}
	if (!rec_match(&r))
		return 0;
	if (r.kind == SOCK_KIND_FULL) {
		tp = bpf_skc_to_tcp_sock(skc);
		if (!tp)
			return 0;
	}
	if (config.mode == SOCK_MODE_COUNT) {
		count(&r);
		return 0;
	}
	/* after the filter: these reads miss the cache */
	if (tp)
		read_full(&r, tp, s);
	/* the socket as it was, then closed */
	if (config.want_kill) {
		if (!kill_sock(&k, skc, (struct sock *)tp))
			return 0;
		kill = &k;
	}
	if (want_text()) {
		print_text(seq, s, &r, skc);
		return 0;
	}
	if (want_info() && tp)
		err = emit_with_info(seq, &r, skc, tp, kill);
	else
		err = emit_record(seq, &r, skc, true, NULL, kill);
	if (kill)
		emit_killed(err, kill);
	return 0;
}

SEC("iter/tcp")
int tcp_iter(struct bpf_iter__tcp *ctx)
{
	struct sock_common *skc = ctx->sk_common;
	struct seq_file *seq = ctx->meta->seq;
	struct session *s = NULL;
	__u8 family;
	__u32 sl = 0;

	if (config.mode != SOCK_MODE_COUNT) {
		s = get_session(ctx->meta);
		if (!s)
			return 0;
	}
	if (want_text())
		text_header(seq, s, header4, sizeof(header4) - 1,
			    PROC_TCP_WIDTH4,
			    header6, sizeof(header6) - 1);
	if (!skc) {	/* the end of the walk */
		if (config.mode == SOCK_MODE_RECORDS)
			write_end(seq);
		return 0;
	}
	/* The listening hash is walked first: the first socket of the
	 * established hash marks its end, and the reader stops there. */
	if (config.listeners_only && skc->skc_state != SOCK_ST_LISTEN) {
		write_end(seq);
		return 0;
	}
	/* AF_INET (2) or AF_INET6 (10) without a branch, that would have
	 * the verifier walk all that follows once per family */
	family = (skc->skc_family >> 3) & 1;
	if (!(config.filter.families & (1 << family)))
		return 0;
	if (s)
		sl = ordinal(s, ctx->meta->seq_num, family);
	/*
	 * The filter's ports and owner first, on what the walk has brought
	 * into the cache already: most sockets of a narrow query end here.
	 * skc_num is the local port of every hashed socket (inet_sport,
	 * tw_sport in network order), as inet_diag reports it.  The kernel
	 * passes uid 0 for TIME_WAIT.
	 */
	if (!ports_match(skc->skc_num, bpf_ntohs(skc->skc_dport), ctx->uid))
		return 0;
	return show_sock(seq, s, skc, family, sl, ctx->uid);
}
