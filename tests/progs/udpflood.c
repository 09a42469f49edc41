// SPDX-License-Identifier: GPL-2.0
/*
 * udpflood SECS [RATE]: a UDP sender and a receiver (a child process) on
 * the loopback interface for SECS seconds; as fast as it can, or RATE
 * datagrams a second.  Loopback delivery runs in the
 * NET_RX softirq (raised by the sender's netif_rx(), served when it
 * re-enables bottom halves), so this is a softirq-heavy load.  Needs lo up.
 * Prints datagrams sent and received.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"

static int udp_socket(struct sockaddr_in *a)
{
	int fd = socket(AF_INET, SOCK_DGRAM, 0);

	if (fd < 0 || bind(fd, (struct sockaddr *)a, sizeof(*a)) < 0) {
		fprintf(stderr, "udpflood: socket: %s\n", strerror(errno));
		exit(1);
	}
	return fd;
}

int main(int argc, char **argv)
{
	struct sockaddr_in rx = { .sin_family = AF_INET };
	struct sockaddr_in tx = { .sin_family = AF_INET };
	unsigned long long t0, dur, t, sent = 0, got = 0, rate = 0;
	socklen_t len = sizeof(rx);
	int rfd, sfd, pfd[2], status;
	char buf[64] = "randstat";
	pid_t pid;

	if (argc != 2 && argc != 3) {
		fprintf(stderr, "usage: udpflood SECS [RATE]\n");
		return 2;
	}
	dur = secs_arg(argv[1], "udpflood");
	if (argc == 3) {
		rate = strtoull(argv[2], NULL, 10);
		if (!rate || rate > 1000000) {
			fprintf(stderr, "udpflood: RATE: 1 to 1000000 packets/s\n");
			return 2;
		}
	}
	rx.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	tx.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	rfd = udp_socket(&rx);
	getsockname(rfd, (struct sockaddr *)&rx, &len);
	if (pipe(pfd))
		return 1;

	pid = fork();
	if (pid == 0) {		/* receiver: count until SIGTERM */
		struct timeval tv = { .tv_sec = 0, .tv_usec = 200000 };

		close(pfd[0]);
		setsockopt(rfd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
		for (;;) {
			ssize_t n = recv(rfd, buf, sizeof(buf), 0);

			if (n > 0) {
				got++;
				continue;
			}
			if (n < 0 && errno != EINTR && errno != EAGAIN)
				break;
			if (n < 0 && errno == EAGAIN)	/* sender done */
				break;
		}
		if (write(pfd[1], &got, sizeof(got)) != sizeof(got))
			_exit(1);
		_exit(0);
	}
	close(pfd[1]);
	close(rfd);
	sfd = udp_socket(&tx);
	t0 = now_ns(CLOCK_MONOTONIC);
	do {
		int i;

		if (rate) {	/* paced: one packet every 1/RATE s */
			unsigned long long due = t0 + sent * 1000000000ULL / rate;
			struct timespec ts = { .tv_sec = due / 1000000000ULL,
					       .tv_nsec = due % 1000000000ULL };

			clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
			if (sendto(sfd, buf, sizeof(buf), 0,
				   (struct sockaddr *)&rx, sizeof(rx)) > 0)
				sent++;
			t = now_ns(CLOCK_MONOTONIC);
			continue;
		}
		for (i = 0; i < 64; i++)
			if (sendto(sfd, buf, sizeof(buf), 0,
				   (struct sockaddr *)&rx, sizeof(rx)) > 0)
				sent++;
		t = now_ns(CLOCK_MONOTONIC);
	} while (t - t0 < dur);
	if (read(pfd[0], &got, sizeof(got)) != sizeof(got))
		got = 0;
	waitpid(pid, &status, 0);
	printf("udpflood sent %llu received %llu\n", sent, got);
	print_cputime("udpflood", t - t0);
	return got > 0 ? 0 : 1;
}
