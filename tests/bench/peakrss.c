// SPDX-License-Identifier: GPL-2.0
/*
 * peakrss CMD...: runs CMD with stdout on /dev/null and prints its peak
 * RSS in KiB (wait4()'s ru_maxrss, as `time -f %M` prints it).  A static
 * program of its own: exec() counts the launcher's RSS into the child's
 * peak, and a shell's or python's would be bigger than kit's.
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct rusage ru;
	int status, null;
	pid_t pid;

	if (argc < 2) {
		fprintf(stderr, "usage: peakrss CMD...\n");
		return 2;
	}
	pid = fork();
	if (pid == 0) {
		null = open("/dev/null", O_WRONLY);
		dup2(null, STDOUT_FILENO);
		execvp(argv[1], argv + 1);
		perror(argv[1]);
		_exit(127);
	}
	if (pid < 0 || wait4(pid, &status, 0, &ru) < 0) {
		perror("peakrss");
		return 1;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "peakrss: %s failed\n", argv[1]);
		return 1;
	}
	printf("%ld\n", ru.ru_maxrss);
	return 0;
}
