/**
 * Small MQTT packets go out at once (TCP_NODELAY). Without it, Nagle's algorithm holds a publish
 * while the previous one is unacknowledged, and a broker that has nothing to send back acknowledges
 * only after its delayed-ACK timer (~40 ms): a scale request sent right after the last reading's
 * "success" sound then waited ~40 ms (measured in bench/bus.ts: 44 ms round trips, 5 ms with this).
 * mqtt.js does not set it; this does, on every (re)connect, for TCP connections.
 */
import type { MqttClient } from 'mqtt'

export function sendAtOnce(client: MqttClient): MqttClient {
  const set = () => (client.stream as { setNoDelay?: (on: boolean) => unknown } | undefined)?.setNoDelay?.(true)
  client.on('connect', set)
  set()
  return client
}
