/* A vendored library's shim of a system call, for its own platforms. */
int fsync(int fd) {
    (void)fd;
    return 0;
}
