#!/bin/bash
# tcpiter on this kernel, against /proc/net/tcp and tcp6 in a network
# namespace holding one TCP socket of every kind (tests/sockzoo.c): every
# output form, filter, netns choice and pin; churn; refusals.
P=tcp
. "$TESTS/socktest.sh"
require

# States first: the zoo's TIME_WAIT and SYN_SENT sockets time out in a minute.
check -s time-wait
check -s syn-sent
check -s syn-recv
check -s fin-wait-2 -s close-wait
check_outputs
check_owners_ss
check_owners_pidns
check_owners_last
check_info_ss
check_info_rttvar
check -s established
check -s listening		# ss's name
check -s listen
# Listeners only: the walk stops at the end of the listening hash.
check -s listening -t
check -6 -s listening -j
check -4 -s listen -H
check -s connected
check -s all -c
check --sport 5002
check --sport 05002	# decimal, as ss takes it: not octal
check --dport 5002
check --dport 0		# listeners and unconnected: port 0 is a port
EMPTY=1 check --sport 0	# none has local port 0: not "any port"
check --src 127.0.0.1
check --src ::1
check --src ::		# the dual-stack listener
check --src ::ffff:127.0.0.1	# v4-mapped sockets only
check --src 127.0.0.0/8		# v4 and v4-mapped
# Prefix boundaries: the zoo has sockets just inside and just outside each.
check --src 127.0.0.0
check --src 126.0.0.0/7
check --src 2001:db8::/32
check --src ::ffff:127.0.0.0/104
check --dst ::1/128
check --dst 0.0.0.0/0
check --uid 4242
check --uid 0 -6 -j
check -4 -s established --dport 5002
check -6 -t -s fin-wait-2 --src ::1
check -j -s syn-recv
check -c -s connected --src ::1
check -t --dst 127.0.0.1
check_listen_queues
check_both_protocols
