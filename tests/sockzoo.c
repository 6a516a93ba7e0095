// SPDX-License-Identifier: GPL-2.0
/*
 * sockzoo: socket populations for the tcpiter/udpiter tests and the socket
 * benchmark.  Static, so the VM guests (busybox only) can run it too.
 *
 *   sockzoo zoo               one socket of every kind the tests compare
 *   sockzoo tcp PAIRS PORT    PAIRS established loopback pairs, one
 *                             listener per worker on 127.0.0.1:PORT+i
 *   sockzoo udp COUNT PORT    COUNT UDP sockets bound to 127.0.0.1:PORT..
 *   sockzoo churn SECONDS     open and close sockets for SECONDS, or until
 *                             SIGTERM, then exit 0
 *   sockzoo victims REPORT    sockets for kill to close (ports 5030-5035);
 *                             on SIGUSR1 the holder writes to REPORT what
 *                             their owner sees of each ("NAME open",
 *                             "NAME ECONNABORTED", ...); on SIGUSR2 it
 *                             makes a TIME_WAIT socket on 5030 first
 *   sockzoo threads           sockets held by threads (ports 5040, 5041):
 *                             see build_threads()
 *
 * zoo, tcp and udp fork a holder, wait until every socket is in place,
 * print the holder's pid and return; the holder keeps the sockets until it
 * gets SIGTERM (or an hour has passed), its workers die with it.  Loopback
 * is brought up first, so `unshare -n sockzoo ...` works.  The zoo's ports
 * are fixed (ZOO_PORT + n): the tests know them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define ZOO_PORT	5000
#define ZOO_UID		4242	/* owner of the zoo's "other user" sockets */
#define HOLD_SECONDS	3600	/* a holder nobody kills goes away by itself */
#define FD_RESERVE	64	/* fds a worker keeps free for itself */

static void __attribute__((noreturn)) die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "sockzoo: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, ": %s\n", strerror(errno));
	exit(1);
}

static void __attribute__((noreturn)) usage(void)
{
	fprintf(stderr, "usage: sockzoo zoo | tcp PAIRS PORT | "
		"udp COUNT PORT | churn SECONDS | victims REPORT\n");
	exit(2);
}

static long number(const char *s)
{
	char *end;
	long n = strtol(s, &end, 10);

	if (!*s || *end || n < 0)
		usage();
	return n;
}

/* An address: "127.0.0.1", "::1", "::ffff:127.0.0.1"; family from it. */
static socklen_t make_addr(struct sockaddr_storage *ss, const char *ip,
			   int port)
{
	struct sockaddr_in *in = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)ss;

	memset(ss, 0, sizeof(*ss));
	if (inet_pton(AF_INET, ip, &in->sin_addr) == 1) {
		in->sin_family = AF_INET;
		in->sin_port = htons(port);
		return sizeof(*in);
	}
	if (inet_pton(AF_INET6, ip, &in6->sin6_addr) != 1)
		die("bad address %s", ip);
	in6->sin6_family = AF_INET6;
	in6->sin6_port = htons(port);
	return sizeof(*in6);
}

/* A socket of TYPE for IP; v6only 1 or 0 for AF_INET6, -1 to leave it. */
static int new_socket(int type, const char *ip, int v6only)
{
	struct sockaddr_storage ss;
	int one = 1, fd;

	make_addr(&ss, ip, 0);
	fd = socket(ss.ss_family, type, 0);
	if (fd < 0)
		die("socket");
	if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)))
		die("SO_REUSEADDR");
	if (ss.ss_family == AF_INET6 && v6only >= 0 &&
	    setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &v6only, sizeof(v6only)))
		die("IPV6_V6ONLY");
	return fd;
}

static void bind_to(int fd, const char *ip, int port)
{
	struct sockaddr_storage ss;
	socklen_t len = make_addr(&ss, ip, port);

	if (bind(fd, (struct sockaddr *)&ss, len))
		die("bind %s port %d", ip, port);
}

static int connect_to(int fd, const char *ip, int port)
{
	struct sockaddr_storage ss;
	socklen_t len = make_addr(&ss, ip, port);

	return connect(fd, (struct sockaddr *)&ss, len);
}

static int tcp_listener(const char *ip, int port, int v6only, int backlog)
{
	int fd = new_socket(SOCK_STREAM, ip, v6only);

	bind_to(fd, ip, port);
	if (listen(fd, backlog))
		die("listen %s port %d", ip, port);
	return fd;
}

/* The connection LFD's queue holds, once there: a listener the victims
 * made non-blocking may not have it yet when connect() returns (the
 * handshake's last ACK still in softirq, on a slow emulated guest). */
static int accept_queued(int lfd)
{
	struct pollfd p = { .fd = lfd, .events = POLLIN };

	if (poll(&p, 1, 30000) != 1)
		die("accept: nothing queued in 30 s");
	return accept(lfd, NULL, NULL);
}

/* A client connected to IP:PORT, whose listener LFD then accepts it. */
static void tcp_pair(int lfd, const char *ip, int port, int fds[2])
{
	fds[0] = new_socket(SOCK_STREAM, ip, -1);
	if (connect_to(fds[0], ip, port))
		die("connect %s port %d", ip, port);
	fds[1] = accept_queued(lfd);
	if (fds[1] < 0)
		die("accept");
}

/* A pair on lfd whose client offers window scale 0 (a receive buffer set
 * small before connect() clamps its window, tcp_select_initial_window()),
 * while the server offers the default: -i's wscale:SND,RCV differs by
 * side. */
static void tcp_pair_small_wscale(int lfd, const char *ip, int port)
{
	int fd = new_socket(SOCK_STREAM, ip, -1), rcvbuf = 4096;

	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf)))
		die("SO_RCVBUF");
	if (connect_to(fd, ip, port) || accept_queued(lfd) < 0)
		die("connect %s port %d", ip, port);
}

static void set_nonblock(int fd)
{
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK))
		die("O_NONBLOCK");
}

static void send_bytes(int fd, size_t len)
{
	static const char buf[4096];

	if (len > sizeof(buf))
		len = sizeof(buf);
	if (write(fd, buf, len) != (ssize_t)len)
		die("write");
}

/* Write into FD until the peer's receive window and our buffer are full. */
static void fill(int fd)
{
	static const char buf[65536];

	set_nonblock(fd);
	while (write(fd, buf, sizeof(buf)) > 0)
		;
	if (errno != EAGAIN)
		die("write");
}

static void pause_ms(long ms)
{
	struct timespec ts = { ms / 1000, ms % 1000 * 1000000 };

	nanosleep(&ts, NULL);
}

static void loopback_up(void)
{
	struct ifreq ifr = { .ifr_name = "lo" };
	int fd = socket(AF_INET, SOCK_DGRAM, 0);

	if (fd < 0 || ioctl(fd, SIOCGIFFLAGS, &ifr))
		die("lo flags");
	ifr.ifr_flags |= IFF_UP;
	if (ioctl(fd, SIOCSIFFLAGS, &ifr))
		die("bring lo up");
	close(fd);
}

/*
 * TCP: listeners on v4, v6 and dual-stack; established v4, v6 and
 * v4-mapped pairs; data queued both ways; TIME_WAIT, FIN_WAIT2 and
 * CLOSE_WAIT; SYN_RECV (TCP_DEFER_ACCEPT holds the request socket while
 * the client sends no data); SYN_SENT (the listener's accept queue is full,
 * its SYNs are dropped).  Timers: retransmit (the SYN_SENT), zero-window
 * probe (the filled pair), keepalive (a v4 and a v6 pair; 6.19 moved
 * the timers: commits 08dfe370239e, 9a5e5334adc0).  The pair on
 * ZOO_PORT + 1, with data both ways, uses ECN.  Descriptors stay open:
 * the holder keeps them.
 */
static void keepalive(int fd)
{
	int one = 1, idle = 600;

	if (setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof(one)) ||
	    setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof(idle)))
		die("SO_KEEPALIVE");
}

/* net.ipv4.tcp_ecn of this netns: 1 asks for ECN, 2 (the default) only
 * accepts it. */
static void set_ecn(const char *mode)
{
	int fd = open("/proc/sys/net/ipv4/tcp_ecn", O_WRONLY);

	if (fd < 0 || write(fd, mode, 1) != 1)
		die("net.ipv4.tcp_ecn");
	close(fd);
}

static void zoo_tcp(void)
{
	int any4, lo4, lo6, dual, defer4, defer6, fds[2], fd;
	int defer = 600, i;

	any4 = tcp_listener("0.0.0.0", ZOO_PORT + 1, -1, 16);
	lo4 = tcp_listener("127.0.0.1", ZOO_PORT + 2, -1, 16);
	lo6 = tcp_listener("::1", ZOO_PORT + 3, 1, 16);
	dual = tcp_listener("::", ZOO_PORT + 4, 0, 16);
	defer4 = tcp_listener("127.0.0.1", ZOO_PORT + 5, -1, 16);
	defer6 = tcp_listener("::1", ZOO_PORT + 6, 1, 16);
	tcp_listener("127.0.0.1", ZOO_PORT + 7, -1, 0);
	if (setsockopt(defer4, IPPROTO_TCP, TCP_DEFER_ACCEPT, &defer,
		       sizeof(defer)) ||
	    setsockopt(defer6, IPPROTO_TCP, TCP_DEFER_ACCEPT, &defer,
		       sizeof(defer)))
		die("TCP_DEFER_ACCEPT");

	tcp_pair(lo4, "127.0.0.1", ZOO_PORT + 2, fds);
	tcp_pair(lo6, "::1", ZOO_PORT + 3, fds);
	tcp_pair(dual, "127.0.0.1", ZOO_PORT + 4, fds);	/* mapped server */
	tcp_pair(lo4, "::ffff:127.0.0.1", ZOO_PORT + 2, fds); /* mapped client */
	set_ecn("1");		/* the pair with traffic negotiates ECN */
	tcp_pair(any4, "127.0.0.1", ZOO_PORT + 1, fds);
	set_ecn("2");
	send_bytes(fds[0], 1000);
	send_bytes(fds[1], 3000);
	tcp_pair(lo6, "::1", ZOO_PORT + 3, fds);
	fill(fds[0]);
	send_bytes(fds[1], 2000);
	tcp_pair(lo4, "127.0.0.1", ZOO_PORT + 2, fds);
	keepalive(fds[0]);
	tcp_pair(lo6, "::1", ZOO_PORT + 3, fds);
	keepalive(fds[1]);
	tcp_pair_small_wscale(lo4, "127.0.0.1", ZOO_PORT + 2);

	for (i = 0; i < 2; i++) {	/* v4 then v6 */
		const char *ip = i ? "::1" : "127.0.0.1";
		int lfd = i ? lo6 : lo4, port = ZOO_PORT + (i ? 3 : 2);

		tcp_pair(lfd, ip, port, fds);	/* TIME_WAIT client */
		close(fds[0]);
		close(fds[1]);
		tcp_pair(lfd, ip, port, fds);	/* FIN_WAIT2 and CLOSE_WAIT */
		shutdown(fds[0], SHUT_WR);
	}

	fd = new_socket(SOCK_STREAM, "127.0.0.1", -1);
	if (connect_to(fd, "127.0.0.1", ZOO_PORT + 5))
		die("connect");
	fd = new_socket(SOCK_STREAM, "::1", -1);
	if (connect_to(fd, "::1", ZOO_PORT + 6))
		die("connect");

	fd = new_socket(SOCK_STREAM, "127.0.0.1", -1);	/* fills the queue */
	if (connect_to(fd, "127.0.0.1", ZOO_PORT + 7))
		die("connect");
	fd = new_socket(SOCK_STREAM, "127.0.0.1", -1);
	set_nonblock(fd);
	if (!connect_to(fd, "127.0.0.1", ZOO_PORT + 7) || errno != EINPROGRESS)
		die("connect to a full queue did not hang");
	pause_ms(100);	/* FINs and ACKs settle */
}

static int udp_bound(const char *ip, int port, int v6only)
{
	int fd = new_socket(SOCK_DGRAM, ip, v6only);

	bind_to(fd, ip, port);
	return fd;
}

static void udp_send(int fd, const char *ip, int port, int count)
{
	struct sockaddr_storage ss;
	socklen_t len = make_addr(&ss, ip, port);

	while (count--)
		if (sendto(fd, "datagram", 8, 0, (struct sockaddr *)&ss,
			   len) != 8)
			die("sendto %s port %d", ip, port);
}

/* Datagrams the kernel dropped: a socket on port whose receive buffer,
 * at its smallest, holds a few of the twenty it sends itself (drops,
 * 6.18's per NUMA node counters or sk_drops before). */
static void udp_overflowed(int port)
{
	int zero = 0, fd = udp_bound("127.0.0.1", port, -1);

	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &zero, sizeof(zero)))
		die("SO_RCVBUF");
	udp_send(fd, "127.0.0.1", port, 20);
}

/*
 * UDP: bound v4, v6 and dual-stack; connected v4 and v6; three sockets on
 * one port (several rows in one hash slot); datagrams waiting unread; an
 * autobound sender; datagrams dropped.
 */
static void zoo_udp(void)
{
	int fd, i;

	udp_bound("0.0.0.0", ZOO_PORT + 1, -1);
	fd = udp_bound("127.0.0.1", ZOO_PORT + 2, -1);
	if (connect_to(fd, "127.0.0.1", ZOO_PORT + 1))
		die("connect");
	udp_send(fd, "127.0.0.1", ZOO_PORT + 1, 3);
	udp_bound("::1", ZOO_PORT + 3, 1);
	udp_bound("::", ZOO_PORT + 4, 0);
	fd = udp_bound("::1", ZOO_PORT + 5, 1);
	if (connect_to(fd, "::1", ZOO_PORT + 3))
		die("connect");
	udp_send(fd, "::1", ZOO_PORT + 3, 2);
	for (i = 0; i < 3; i++) {
		udp_bound("127.0.0.1", ZOO_PORT + 6, -1);
		udp_bound("::1", ZOO_PORT + 6, 1);
	}
	fd = new_socket(SOCK_DGRAM, "::", 0);
	udp_send(fd, "::ffff:127.0.0.1", ZOO_PORT + 4, 1);
	udp_overflowed(ZOO_PORT + 12);
}

/*
 * Sockets just inside and just outside the prefixes the tests filter on
 * (127.0.0.1, 127.0.0.0/8, 126.0.0.0/7, ::1, 2001:db8::/32, and
 * ::ffff:127.0.0.0/104 for IPv4-mapped ones): a mask a bit too long or
 * too short selects one it should not.  IP_FREEBIND binds addresses that
 * no interface has.  TCP ones listen, each with its own backlog (ss's
 * Send-Q), 1 to 14.  Ports ZOO_PORT + 30, IPv4-mapped ones + 31.
 */
static void zoo_boundaries(int type)
{
	static const char *const addrs[] = {
		"127.0.0.0", "126.255.255.255", "128.0.0.0",
		"127.255.255.254", "2001:db8::", "2001:db8::1",
		"2001:db8:ffff:ffff:ffff:ffff:ffff:ffff",
		"2001:db7:ffff:ffff:ffff:ffff:ffff:ffff", "2001:db9::", "::2",
		"::ffff:127.0.0.0", "::ffff:126.255.255.255",
		"::ffff:128.0.0.0", "::ffff:127.255.255.254",
	};
	int one = 1, fd;
	size_t i;

	for (i = 0; i < sizeof(addrs) / sizeof(addrs[0]); i++) {
		fd = new_socket(type, addrs[i], 0);
		if (setsockopt(fd, SOL_IP, IP_FREEBIND, &one, sizeof(one)))
			die("IP_FREEBIND");
		/* IPv4-mapped addresses share IPv4's ports */
		bind_to(fd, addrs[i], ZOO_PORT +
			(strncmp(addrs[i], "::ffff:", 7) ? 30 : 31));
		if (type == SOCK_STREAM && listen(fd, i + 1))
			die("listen %s", addrs[i]);
	}
}

/* Sockets created while the fs uid is ZOO_UID belong to ZOO_UID. */
static void zoo_other_user(void)
{
	if (setresuid(-1, ZOO_UID, -1))
		die("seteuid");
	tcp_listener("127.0.0.1", ZOO_PORT + 10, -1, 16);
	udp_bound("127.0.0.1", ZOO_PORT + 10, -1);
	if (setresuid(-1, 0, -1))
		die("seteuid back");
}

/*
 * Once built, a holder or worker lets go of the caller's stderr: a pipe
 * (tests/run's tee) must see its end when the caller is done.
 */
static void hush(void)
{
	int fd = open("/dev/null", O_WRONLY);

	if (fd < 0 || dup2(fd, 2) < 0)
		die("/dev/null");
	close(fd);
}

/* Forks a process named name that dies with the holder: true in it. */
static bool zoo_process(const char *name)
{
	pid_t pid = fork();

	if (pid < 0)
		die("fork");
	if (pid)
		return false;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	prctl(PR_SET_NAME, name);
	hush();
	return true;
}

/* A byte down fd: this process is as the tests must find it. */
static void ready(int fd)
{
	if (write(fd, "", 1) != 1)
		die("write");
}

/*
 * Owners for -p: zoo-sharer, forked, shares every socket of the zoo;
 * zoo-receiver holds only a TCP listener and a UDP socket on ZOO_PORT +
 * 11, passed to it over SCM_RIGHTS, as fds 100 and 101.  Each says when
 * it is named and holds what it should: a test that looks earlier sees
 * a child still called sockzoo, holding every fd.
 */
static void zoo_owners(void)
{
	int passed[2], sv[2], done[2], fd;
	char byte = 0, control[CMSG_SPACE(sizeof(passed))] = { 0 };
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
			      .msg_control = control,
			      .msg_controllen = sizeof(control) };
	struct cmsghdr *cmsg = CMSG_FIRSTHDR(&msg);
	char two[2];

	passed[0] = tcp_listener("127.0.0.1", ZOO_PORT + 11, -1, 16);
	passed[1] = udp_bound("127.0.0.1", ZOO_PORT + 11, -1);
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) || pipe(done))
		die("socketpair");
	if (zoo_process("zoo-sharer")) {
		ready(done[1]);
		for (;;)
			pause();
	}
	if (zoo_process("zoo-receiver")) {
		for (fd = 3; fd < 4096; fd++)
			if (fd != sv[1] && fd != done[1])
				close(fd);
		if (recvmsg(sv[1], &msg, 0) != 1 || !cmsg ||
		    cmsg->cmsg_type != SCM_RIGHTS)
			die("recvmsg");
		memcpy(passed, CMSG_DATA(cmsg), sizeof(passed));
		if (dup2(passed[0], 100) < 0 || dup2(passed[1], 101) < 0)
			die("dup2");
		close(passed[0]);
		close(passed[1]);
		close(sv[1]);
		ready(done[1]);
		close(done[1]);
		for (;;)
			pause();
	}
	cmsg->cmsg_level = SOL_SOCKET;
	cmsg->cmsg_type = SCM_RIGHTS;
	cmsg->cmsg_len = CMSG_LEN(sizeof(passed));
	memcpy(CMSG_DATA(cmsg), passed, sizeof(passed));
	if (sendmsg(sv[0], &msg, 0) != 1)
		die("sendmsg");
	close(sv[0]);
	close(sv[1]);
	close(done[1]);
	if (read(done[0], two, 1) != 1 || read(done[0], two + 1, 1) != 1)
		die("zoo-sharer or zoo-receiver did not get ready");
	close(done[0]);
}

static void build_zoo(void)
{
	zoo_tcp();
	zoo_udp();
	zoo_boundaries(SOCK_STREAM);
	zoo_boundaries(SOCK_DGRAM);
	zoo_other_user();
	zoo_owners();
}

/* Room for descriptors in one worker: the hard limit, raised to. */
static long worker_fds(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		die("getrlimit");
	rl.rlim_cur = rl.rlim_max;
	if (setrlimit(RLIMIT_NOFILE, &rl))
		die("setrlimit");
	return rl.rlim_max - FD_RESERVE;
}

/* Worker I of a tcp population: COUNT pairs through 127.0.0.1:PORT+I. */
static void tcp_worker(long i, long first, long count, long port)
{
	int lfd = tcp_listener("127.0.0.1", port + i, -1, 4096), fds[2];

	(void)first;
	while (count--)
		tcp_pair(lfd, "127.0.0.1", port + i, fds);
}

/* A worker of a udp population: COUNT sockets from PORT+FIRST. */
static void udp_worker(long i, long first, long count, long port)
{
	(void)i;
	while (count--)
		udp_bound("127.0.0.1", port + first++, -1);
}

/* Holder's side: wait for one byte from each of COUNT writers on FD. */
static void wait_ready(int fd, long count)
{
	char c;

	while (count--)
		if (read(fd, &c, 1) != 1)
			exit(1);	/* a worker failed and said why */
}

/*
 * Builds TOTAL objects of FDS_PER descriptors each with BUILD(worker,
 * first object, count, ARG), in as many workers as the fd limit needs
 * and four at least; returns once all are built.  Workers die with the
 * holder.
 */
static void spread(void (*build)(long, long, long, long), long total,
		   long fds_per, long arg, int ready_fd)
{
	long per = worker_fds() / fds_per, i, n, workers = 0;
	int pipefd[2];

	/* four workers at least: -p's benchmark wants several processes */
	if (per > (total + 3) / 4)
		per = (total + 3) / 4 ? (total + 3) / 4 : 1;

	if (pipe(pipefd))
		die("pipe");
	for (i = 0; i * per < total; i++, workers++) {
		n = total - i * per < per ? total - i * per : per;
		switch (fork()) {
		case -1:
			die("fork");
		case 0:
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			close(pipefd[0]);
			close(ready_fd);
			build(i, i * per, n, arg);
			if (write(pipefd[1], "", 1) != 1)
				die("write");
			hush();
			for (;;)
				pause();
		}
	}
	close(pipefd[1]);
	wait_ready(pipefd[0], workers);
	close(pipefd[0]);
}

/* ---- victims ---- */

#define VICTIMS_PORT	(ZOO_PORT + 30)

static struct victim {
	const char *name;
	int fd;
	bool listener;
} victims[16];
static int n_victims;
static const char *victims_report;
static volatile sig_atomic_t report_wanted, time_wait_wanted;
static int listener4;	/* where SIGUSR2's TIME_WAIT socket is made */

static void victim(const char *name, int fd, bool listener)
{
	set_nonblock(fd);
	victims[n_victims++] = (struct victim){ name, fd, listener };
}

static void victim_pair(int lfd, const char *ip, int port, const char *client,
			const char *server)
{
	int fds[2];

	tcp_pair(lfd, ip, port, fds);
	victim(client, fds[0], false);
	victim(server, fds[1], false);
}

/* A TIME_WAIT socket on the listener's port: its accepted end closes
 * first. */
static void time_wait(int lfd, const char *ip, int port)
{
	char c;
	int fds[2];

	tcp_pair(lfd, ip, port, fds);
	close(fds[1]);
	if (read(fds[0], &c, 1) != 0)
		die("no FIN for the TIME_WAIT pair");
	close(fds[0]);
}

/*
 * A SO_REUSEPORT group of GROUP_LISTENERS on one address: one bucket of
 * the kernel's listening hash, whose records take more than one read().
 */
#define GROUP_LISTENERS	200

static void reuseport_group(const char *ip, int port)
{
	int one = 1, i, fd;

	for (i = 0; i < GROUP_LISTENERS; i++) {
		fd = new_socket(SOCK_STREAM, ip, -1);
		if (setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof(one)))
			die("SO_REUSEPORT");
		bind_to(fd, ip, port);
		if (listen(fd, 1))
			die("listen %s port %d", ip, port);
	}
}

/*
 * UDP_CLIENTS sockets connected to IP:PORT with ports of the kernel's
 * choosing: closing one takes it out of the table, unlike a bound one.
 */
#define UDP_CLIENTS	500

static void udp_clients(const char *ip, int port)
{
	int i, fd;

	for (i = 0; i < UDP_CLIENTS; i++) {
		fd = new_socket(SOCK_DGRAM, ip, -1);
		if (connect_to(fd, ip, port))
			die("connect UDP");
	}
}

/* A request socket (SYN_RECV) on IP:PORT: TCP_DEFER_ACCEPT holds it
 * while its client sends nothing. */
static void request_socket(const char *ip, int port)
{
	int lfd = tcp_listener(ip, port, -1, 16), defer = 600;

	if (setsockopt(lfd, IPPROTO_TCP, TCP_DEFER_ACCEPT, &defer,
		       sizeof(defer)))
		die("TCP_DEFER_ACCEPT");
	if (connect_to(new_socket(SOCK_STREAM, ip, -1), ip, port))
		die("connect %s port %d", ip, port);
}

/*
 * TCP: two IPv4 pairs on listener4 (5030), an IPv6 pair on listener6
 * (5031), a SO_REUSEPORT group of listeners on 5034, a request socket on
 * 5035; UDP: udp_bound on 5032, udp_connected on 5033 and UDP_CLIENTS
 * more connected to it, and one bound on ::1 5036
 * (kill -6 has a socket to select); a TCP listener and a UDP socket of
 * ZOO_UID on 127.0.0.2:5037 (kill --uid 0 must leave them).
 */
static void build_victims(void)
{
	int l4 = listener4 = tcp_listener("127.0.0.1", VICTIMS_PORT, -1, 16);
	int l6 = tcp_listener("::1", VICTIMS_PORT + 1, 1, 16);
	int u = udp_bound("127.0.0.1", VICTIMS_PORT + 2, -1);
	int uc = udp_bound("127.0.0.1", VICTIMS_PORT + 3, -1);

	victim("listener4", l4, true);
	victim("listener6", l6, true);
	victim_pair(l4, "127.0.0.1", VICTIMS_PORT, "client4a", "server4a");
	victim_pair(l4, "127.0.0.1", VICTIMS_PORT, "client4b", "server4b");
	victim_pair(l6, "::1", VICTIMS_PORT + 1, "client6", "server6");
	reuseport_group("127.0.0.1", VICTIMS_PORT + 4);
	request_socket("127.0.0.1", VICTIMS_PORT + 5);
	if (connect_to(uc, "127.0.0.1", VICTIMS_PORT + 2))
		die("connect UDP");
	udp_clients("127.0.0.1", VICTIMS_PORT + 2);
	udp_bound("::1", VICTIMS_PORT + 6, 1);
	if (setresuid(-1, ZOO_UID, -1))
		die("seteuid");
	victim("listener_uid", tcp_listener("127.0.0.2", VICTIMS_PORT + 7, -1,
					    16), true);
	udp_bound("127.0.0.2", VICTIMS_PORT + 7, -1);
	if (setresuid(-1, 0, -1))
		die("seteuid back");
	victim("udp_bound", u, false);
	victim("udp_connected", uc, false);
}

/* errno as the report names it. */
static const char *errno_name(int err)
{
	static char other[32];

	switch (err) {
	case EAGAIN: return "open";
	case ECONNABORTED: return "ECONNABORTED";
	case ECONNRESET: return "ECONNRESET";
	case EINVAL: return "EINVAL";
	case ENOTCONN: return "ENOTCONN";
	case EDESTADDRREQ: return "EDESTADDRREQ";
	case 0: return "data";
	}
	snprintf(other, sizeof(other), "errno %d", err);
	return other;
}

/* What the owner's next call on v says: open, eof, or the error. */
static const char *victim_state(const struct victim *v)
{
	char c;
	int fd;

	errno = 0;
	if (v->listener) {
		fd = accept(v->fd, NULL, NULL);
		if (fd >= 0)
			return "accepted";
	} else if (recv(v->fd, &c, 1, MSG_PEEK) == 0) {
		return "eof";
	}
	return errno_name(errno);
}

/*
 * "NAME peer" and, for a UDP socket without one, "NAME send": probes
 * that change nothing (getpeername(); a send() of nothing, refused
 * without an address), for what kill did to a connected socket.
 */
static void victim_peer(FILE *f, const struct victim *v)
{
	struct sockaddr_storage ss;
	int type = 0;
	socklen_t len = sizeof(type);

	getsockopt(v->fd, SOL_SOCKET, SO_TYPE, &type, &len);
	len = sizeof(ss);
	if (!getpeername(v->fd, (struct sockaddr *)&ss, &len)) {
		fprintf(f, "%s peer connected\n", v->name);
		return;
	}
	fprintf(f, "%s peer %s\n", v->name, errno_name(errno));
	if (type == SOCK_DGRAM && send(v->fd, "", 0, 0) < 0)
		fprintf(f, "%s send %s\n", v->name, errno_name(errno));
}

/* REPORT, whole at once: the test waits for it to appear. */
static void write_report(void)
{
	char tmp[4096];
	FILE *f;
	int i;

	snprintf(tmp, sizeof(tmp), "%s.tmp", victims_report);
	f = fopen(tmp, "w");
	if (!f)
		die("%s", tmp);
	for (i = 0; i < n_victims; i++) {
		if (!victims[i].listener)
			victim_peer(f, &victims[i]);
		fprintf(f, "%s %s\n", victims[i].name,
			victim_state(&victims[i]));
	}
	if (fclose(f) || rename(tmp, victims_report))
		die("%s", victims_report);
}

static void on_usr1(int sig)
{
	(void)sig;
	report_wanted = 1;
}

/* A TIME_WAIT socket lives 60 s (TCP_TIMEWAIT_LEN): one made with the
 * others would be gone by the time a slow guest's check reaches it. */
static void on_usr2(int sig)
{
	(void)sig;
	time_wait_wanted = 1;
	report_wanted = 1;
}

static void on_term(int sig)
{
	(void)sig;
	_exit(0);
}

/* ---- threads ---- */

#define THREADS_PORT	(ZOO_PORT + 40)

/* What a thread of build_threads() does, with a byte to READY when done. */
struct thread_job {
	const char *name;
	bool own_files;
	int port, ready;
};

static void *thread_holder(void *arg)
{
	const struct thread_job *job = arg;

	prctl(PR_SET_NAME, job->name);
	if (job->own_files && unshare(CLONE_FILES))
		die("unshare(CLONE_FILES)");
	tcp_listener("127.0.0.1", job->port, -1, 16);
	udp_bound("127.0.0.1", job->port, -1);
	ready(job->ready);
	for (;;)
		pause();
}

static void start_thread(struct thread_job *job)
{
	pthread_t t;

	if (pthread_create(&t, NULL, thread_holder, job))
		die("pthread_create");
}

/*
 * Sockets that -p must name by their process, not by the thread that
 * holds them: a thread of the holder, zoo-thread-a, with a table of files
 * of its own (unshare(CLONE_FILES)) holds a TCP listener and a UDP socket
 * on THREADS_PORT; a process zoo-leader, whose group leader has exited,
 * keeps those on THREADS_PORT + 1 in its thread zoo-thread-b.
 */
static void build_threads(void)
{
	static struct thread_job a = { "zoo-thread-a", true, THREADS_PORT },
				 b = { "zoo-thread-b", false, THREADS_PORT + 1 };
	int done[2];
	char two[2];

	if (pipe(done))
		die("pipe");
	a.ready = b.ready = done[1];
	if (zoo_process("zoo-leader")) {
		start_thread(&b);
		syscall(SYS_exit, 0);	/* the leader only */
	}
	start_thread(&a);
	if (read(done[0], two, 1) != 1 || read(done[0], two + 1, 1) != 1)
		die("a thread did not get ready");
	close(done[0]);
}

/*
 * Forks the holder, which builds with WHAT and says so through a pipe;
 * the parent prints the holder's pid and returns 0, or 1 if it died.
 */
static int hold(const char *what, long count, long port)
{
	int pipefd[2], devnull = open("/dev/null", O_RDWR);
	sigset_t usr, others;
	pid_t pid;
	char c;

	if (devnull < 0 || pipe(pipefd))
		die("pipe");
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid) {
		close(pipefd[1]);
		if (read(pipefd[0], &c, 1) != 1)
			return 1;
		printf("%d\n", pid);
		return 0;
	}
	close(pipefd[0]);
	dup2(devnull, 0);
	dup2(devnull, 1);	/* $(sockzoo ...) ends when the parent does */
	setsid();
	signal(SIGTERM, on_term);
	loopback_up();
	if (!strcmp(what, "zoo"))
		build_zoo();
	else if (!strcmp(what, "victims"))
		build_victims();
	else if (!strcmp(what, "threads"))
		build_threads();
	else if (!strcmp(what, "tcp"))
		spread(tcp_worker, count, 2, port, pipefd[1]);
	else
		spread(udp_worker, count, 1, port, pipefd[1]);
	if (write(pipefd[1], "", 1) != 1)
		die("write");
	close(pipefd[1]);
	hush();
	alarm(HOLD_SECONDS);
	signal(SIGUSR1, on_usr1);
	if (n_victims)
		signal(SIGUSR2, on_usr2);
	/* SIGUSR1 and SIGUSR2 come only in sigsuspend(): one that comes
	 * during the work is seen after it, not lost. */
	sigemptyset(&usr);
	sigaddset(&usr, SIGUSR1);
	sigaddset(&usr, SIGUSR2);
	sigprocmask(SIG_BLOCK, &usr, &others);
	for (;;) {
		while (!report_wanted)
			sigsuspend(&others);
		if (time_wait_wanted)
			time_wait(listener4, "127.0.0.1", VICTIMS_PORT);
		time_wait_wanted = report_wanted = 0;
		write_report();
	}
}

/* One round of churn: a pair on a listener, a UDP socket, all closed. */
static void churn_once(int lfd, const char *ip, int port, int round)
{
	struct linger rst = { 1, 0 };
	int fds[2], ufd;

	tcp_pair(lfd, ip, port, fds);
	send_bytes(fds[round & 1], 100);
	if (round % 3 == 0)	/* some end in RST, the rest in TIME_WAIT */
		setsockopt(fds[0], SOL_SOCKET, SO_LINGER, &rst, sizeof(rst));
	ufd = udp_bound(ip, 0, 1);
	close(fds[round & 1]);
	close(fds[!(round & 1)]);
	close(ufd);
}

static int churn(long seconds)
{
	time_t end = time(NULL) + seconds;
	int lfd4, lfd6, round;

	/* Dies with the test that started it, killed or not; SIGTERM is
	 * how a test ends it: exit 0, or a shell waiting for it prints
	 * "Terminated" into the test's log. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	signal(SIGTERM, on_term);
	loopback_up();
	lfd4 = tcp_listener("127.0.0.1", ZOO_PORT + 20, -1, 128);
	lfd6 = tcp_listener("::1", ZOO_PORT + 20, 1, 128);
	for (round = 0; time(NULL) < end; round++) {
		churn_once(lfd4, "127.0.0.1", ZOO_PORT + 20, round);
		churn_once(lfd6, "::1", ZOO_PORT + 20, round);
		if (round % 4 == 0)
			pause_ms(1);	/* TIME_WAIT stays in the thousands */
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "zoo"))
		return hold("zoo", 0, 0);
	if (argc == 4 && (!strcmp(argv[1], "tcp") || !strcmp(argv[1], "udp")))
		return hold(argv[1], number(argv[2]), number(argv[3]));
	if (argc == 2 && !strcmp(argv[1], "threads"))
		return hold("threads", 0, 0);
	if (argc == 3 && !strcmp(argv[1], "churn"))
		return churn(number(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "victims")) {
		victims_report = argv[2];
		return hold("victims", 0, 0);
	}
	usage();
}
