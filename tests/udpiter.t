#!/bin/bash
# udpiter on this kernel, against /proc/net/udp and udp6 in a network
# namespace holding UDP sockets of every kind (tests/sockzoo.c): every
# output form, filter, netns choice and pin; churn; refusals.
P=udp
. "$TESTS/socktest.sh"
require

check_outputs
check_owners_ss
check_owners_pidns
check_owners_last
check -s established
check -s close
check -s closed			# ss's name
check -s all
check --sport 5006		# three sockets in one hash slot, v4 and v6
check --dport 5001
check --dport 0		# listeners and unconnected: port 0 is a port
EMPTY=1 check --sport 0	# none has local port 0: not "any port"
check --src 127.0.0.1
check --src ::1
check --src ::			# dual-stack and autobound
check --src ::ffff:0.0.0.0/96	# v4-mapped ones only, not IPv4 ones
check --src 127.0.0.0/8
# Prefix boundaries: the zoo has sockets just inside and just outside each.
check --src 127.0.0.0
check --src 126.0.0.0/7
check --src 2001:db8::/32
check --src ::ffff:127.0.0.0/104
check --dst ::1
check --uid 4242
check -t --sport 5006
check -j -s established
check -c --src ::1
check -4 -c
check_both_protocols
