#!/usr/bin/python3
"""A TCP relay that can play an S3 server going down and coming back, for the
remote tests: it forwards 127.0.0.1:PORT to TARGET_PORT while the file DOWN_FLAG
does not exist; while it exists, new connections are closed at once and open
ones are cut (as a store that went away would), until the file is removed.

  tcp_relay.py PORT TARGET_PORT DOWN_FLAG      (runs until killed; PORT 0: a free one, printed)"""
import os, socket, sys, threading

port, target, flag = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]


def pipe(a, b):
    a.settimeout(0.1)
    try:
        while not os.path.exists(flag):
            try:
                data = a.recv(65536)
            except socket.timeout:
                continue
            if not data:
                break
            b.sendall(data)
    except OSError:
        pass
    for s in (a, b):
        try:
            s.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


server = socket.socket()
server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
server.bind(("127.0.0.1", port))
server.listen(64)
print(server.getsockname()[1], flush=True)
while True:
    client, _ = server.accept()
    if os.path.exists(flag):
        client.close()
        continue
    try:
        upstream = socket.create_connection(("127.0.0.1", target))
    except OSError:
        client.close()
        continue
    threading.Thread(target=pipe, args=(client, upstream), daemon=True).start()
    threading.Thread(target=pipe, args=(upstream, client), daemon=True).start()
