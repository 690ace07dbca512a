// A client's day on a fake, for the /__mock/ui browser test and scripts/screenshots.ts:
// a walk of the candidates every hour (three pages, to the last), the metrics asked, and
// asked again inside their window every third hour (a 429 and a verdict finding), an
// injected 503 at the fifth hour, the virtual clock moved an hour at a time.

/** Lives `hours` hours of a client's day on the fake at `url`, with Basic credentials `auth`. */
export async function liveADay(url: string, auth: { authorization: string }, hours = 10): Promise<void> {
  const api = (path: string) => fetch(`${url}/api/v1${path}`, { headers: auth }).then((r) => r.arrayBuffer())
  const control = (path: string, body: object) =>
    fetch(`${url}/__mock${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.arrayBuffer())
  for (let hour = 0; hour < hours; hour++) {
    for (let page = 1; page <= 3; page++) await api(`/candidates/list?page=${page}`)
    await api('/metrics/list')
    if (hour % 3 === 0) await api('/metrics/list')
    if (hour === 4) {
      await control('/faults', { path: '/api/v1/applications/list', status: 503, times: 1 })
      await api('/applications/list')
    }
    await control('/clock/advance', { seconds: 3600 })
  }
}
