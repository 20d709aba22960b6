/**
 * A DQL query through an agent's `/v1/query/raw` (forwarded to its workspace), reduced to the
 * first value of each series. An answer without series (an error envelope, or a table whose
 * first write is still being committed) reads as no series, so a caller polling for rows simply
 * asks again.
 */
interface RawAnswer {
  content?: { series?: { values: unknown[][] }[] }[]
}

export async function firstValues(agentUrl: string, query: string): Promise<unknown[]> {
  const res = await fetch(`${agentUrl}/v1/query/raw`, {
    method: 'POST',
    body: JSON.stringify({ queries: [{ query }] }),
  })
  const body = (await res.json()) as RawAnswer
  const series = body.content?.[0]?.series ?? []
  return series.map((s) => s.values[0][1])
}
