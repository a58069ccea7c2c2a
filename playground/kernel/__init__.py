"""The kernel: user code runs in a child process, so nothing it does can take the window down."""
