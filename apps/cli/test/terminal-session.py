"""Runs a command on a real pseudo-terminal and types into it, for tests of what people see at a prompt.

usage: terminal-session.py CWD INPUTS -- COMMAND...
INPUTS: what to type, in turns separated by \x1e, each after the output settles; "^D" is Ctrl-D.
Prints everything the terminal showed, then "<<exit N>>". Bounded: 20 seconds at most.
"""
import os, pty, sys, time, select
cwd = sys.argv[1]; script = sys.argv[2].split("\x1e") if sys.argv[2] else []; cmd = sys.argv[4:]
pid, fd = pty.fork()
if pid == 0:
    os.chdir(cwd); os.execvp(cmd[0], cmd)
out = b""
deadline = time.time() + 20
def read_for(t):
    global out
    end = time.time() + t
    while time.time() < end:
        r, _, _ = select.select([fd], [], [], 0.05)
        if r:
            try: data = os.read(fd, 4096)
            except OSError: return False
            if not data: return False
            out += data
    return True
read_for(1.0)
for item in script:
    os.write(fd, b"\x04" if item == "^D" else item.encode())
    if not read_for(0.7): break
reaped = None
while reaped is None and time.time() < deadline:
    open_ = read_for(0.2)
    w, status = os.waitpid(pid, os.WNOHANG)
    if w:
        reaped = status
    elif not open_:
        time.sleep(0.05)
if reaped is None:
    os.kill(pid, 9)
    _, reaped = os.waitpid(pid, 0)
read_for(0.1)
sys.stdout.write(out.decode(errors="replace"))
sys.stdout.write("\n<<exit %d>>\n" % os.waitstatus_to_exitcode(reaped))
