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

/** The rows of every series of the answer (no series limit), or none when it has no series. */
export async function allRows(agentUrl: string, query: string): Promise<unknown[][]> {
  const res = await fetch(`${agentUrl}/v1/query/raw`, {
    method: 'POST',
    body: JSON.stringify({ queries: [{ query, disable_slimit: true }] }),
  })
  const body = (await res.json()) as RawAnswer
  return (body.content?.[0]?.series ?? []).flatMap((s) => s.values)
}
