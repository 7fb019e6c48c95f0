import { expect, test } from 'bun:test'
import { follow } from '../../../src/core/sites/hub-follow.ts'
import type { HubLink, HubResources } from '../../../src/core/sites/hub-link.ts'
import { hubNames, type StreamMessage } from '../../../src/core/sites/hub-types.ts'

/**
 * A hub whose stream holds changes 1 to 5 and whose consumer hands out nothing the first time it is
 * consumed (a pull lost on a link cut), and every change the next time.
 */
function stallingHub() {
  const LAST = 5
  let consumed = 0
  const message = (sequence: number) => ({
    info: { streamSequence: sequence },
    subject: `belay.org.changes.site-b`,
    headers: undefined,
    data: new TextEncoder().encode(`change ${sequence}`),
    ack() {},
  })
  const consume = async () => {
    consumed += 1
    const handsOut = consumed > 1
    const closed = Promise.withResolvers<IteratorResult<unknown>>()
    let sequence = 0
    return {
      close: async () => closed.resolve({ done: true, value: undefined }),
      [Symbol.asyncIterator]: () => ({
        next: () =>
          handsOut && sequence < LAST
            ? Promise.resolve({ done: false, value: message(++sequence) })
            : closed.promise,
      }),
    }
  }
  const resources = {
    js: { consumers: { get: async () => ({ consume }) } },
    jsm: {
      streams: { info: async () => ({ state: { messages: LAST, first_seq: 1, last_seq: LAST } }) },
      consumers: {
        info: async () => ({
          ack_floor: { stream_seq: 0 },
          delivered: { stream_seq: 0 },
          config: { max_ack_pending: 256 },
        }),
        delete: async () => true,
        add: async () => ({}),
      },
    },
  } as unknown as HubResources
  const link: HubLink = {
    site: 'site-a',
    names: hubNames('org'),
    timeoutMs: 1000,
    resources: async () => resources,
    reachable: () => true,
    untilReachable: async () => {},
    flush: async () => {},
  }
  return { link, consumedTimes: () => consumed }
}

test('a consumer that hands out nothing while changes wait is noticed, and following starts again', async () => {
  const hub = stallingHub()
  const applied: number[] = []
  const errors: string[] = []
  const follower = follow(
    hub.link,
    1,
    async (messages: StreamMessage[]) => {
      applied.push(...messages.map((m) => m.streamSequence))
    },
    { stallCheckMs: 30, retryDelayMs: 5, onError: (error) => errors.push(error.message) },
  )
  for (let waited = 0; applied.length < 5 && waited < 5000; waited += 10) await Bun.sleep(10)
  await follower.stop()
  expect(applied).toEqual([1, 2, 3, 4, 5])
  expect(errors).toEqual(['the hub handed out nothing for 60 ms while change 1 was due'])
  expect(hub.consumedTimes()).toBe(2)
})
