import type { Socket, TCPSocketListener } from 'bun'

/**
 * A TCP proxy on loopback in front of a hub, standing for a box's WAN link: cut() closes every
 * connection through it and turns new ones away (accepted and closed at once, so the client
 * notices now rather than after a timeout); restore() lets them through again, on the same port.
 */
export interface CuttableProxy {
  readonly port: number
  /** nats://127.0.0.1:PORT */
  readonly url: string
  cut(): void
  restore(): void
  close(): void
}

interface Side {
  /** The other end, once connected. */
  peer: Socket<Side> | null
  /** Bytes for this socket that it could not take yet. */
  backlog: Uint8Array[]
  /** Bytes for the peer that arrived before it was connected. */
  early: Uint8Array[]
}

export function startCuttableProxy(target: { hostname: string; port: number }): CuttableProxy {
  let isCut = false
  const open = new Set<Socket<Side>>()

  const forward = (to: Socket<Side>, chunk: Uint8Array) => {
    if (to.data.backlog.length > 0) {
      to.data.backlog.push(chunk.slice())
      return
    }
    const written = to.write(chunk)
    if (written < chunk.length) to.data.backlog.push(chunk.slice(written))
  }
  const drain = (socket: Socket<Side>) => {
    const { backlog } = socket.data
    while (backlog.length > 0) {
      const chunk = backlog[0]!
      const written = socket.write(chunk)
      if (written < chunk.length) {
        backlog[0] = chunk.slice(written)
        return
      }
      backlog.shift()
    }
  }
  const closeBoth = (socket: Socket<Side>) => {
    open.delete(socket)
    const peer = socket.data.peer
    socket.data.peer = null
    if (peer) {
      peer.data.peer = null
      open.delete(peer)
      peer.end()
    }
  }

  const listener: TCPSocketListener<Side> = Bun.listen<Side>({
    hostname: '127.0.0.1',
    port: 0,
    socket: {
      open(client) {
        client.data = { peer: null, backlog: [], early: [] }
        if (isCut) {
          client.end()
          return
        }
        open.add(client)
        Bun.connect<Side>({
          hostname: target.hostname,
          port: target.port,
          socket: {
            open(upstream) {
              upstream.data = { peer: client, backlog: [], early: [] }
              if (!open.has(client)) {
                upstream.end()
                return
              }
              open.add(upstream)
              client.data.peer = upstream
              for (const chunk of client.data.early) forward(upstream, chunk)
              client.data.early = []
            },
            data(upstream, chunk) {
              if (upstream.data.peer) forward(upstream.data.peer, chunk)
            },
            drain,
            close: closeBoth,
            error: closeBoth,
          },
        }).catch(() => {
          open.delete(client)
          client.end()
        })
      },
      data(client, chunk) {
        if (client.data.peer) forward(client.data.peer, chunk)
        else client.data.early.push(chunk.slice())
      },
      drain,
      close: closeBoth,
      error: closeBoth,
    },
  })

  return {
    port: listener.port,
    url: `nats://127.0.0.1:${listener.port}`,
    cut() {
      isCut = true
      for (const socket of [...open]) {
        open.delete(socket)
        socket.end()
      }
    },
    restore() {
      isCut = false
    },
    close() {
      this.cut()
      listener.stop(true)
    },
  }
}
