/**
 * V8 flags the shipped service, the container image and `npm start` start the agent with.
 * Under write load the HTTP thread's young generation grows to V8's default of two 16 MiB
 * semi-spaces (32 MiB resident, measured), and a scavenge only comes once they are full; with
 * 2 MiB ones it stays at 4 MiB. Request garbage dies young, so the scavenges that come more
 * often cost little. V8 reads the flag only when the process starts, so whoever starts it sets
 * it; it applies to every thread without limits of its own (the embedded workspace's), while
 * decode workers take theirs from `[decode] max_young_generation`.
 */
export const NODE_HEAP_FLAGS = ['--max-semi-space-size=2']
