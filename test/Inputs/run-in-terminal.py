"""Runs a command with stdout and stderr on a pseudo-terminal, as a person
at a terminal would, and prints what it wrote (CR LF turned into LF), then
'exit code: N'."""
import os
import pty
import subprocess
import sys

leader, follower = pty.openpty()
proc = subprocess.Popen(sys.argv[1:], stdin=subprocess.DEVNULL,
                        stdout=follower, stderr=follower)
os.close(follower)
output = b""
while True:
    try:
        chunk = os.read(leader, 65536)
    except OSError:  # EIO: the terminal's last writer is gone.
        break
    if not chunk:
        break
    output += chunk
status = proc.wait()
sys.stdout.write(output.decode("utf-8", "replace").replace("\r\n", "\n"))
print("exit code: %d" % status)
