/**
 * The signals that ask a server to stop: Ctrl-C and SIGTERM; on Windows (where SIGTERM never arrives) also Ctrl-Break
 * (SIGBREAK) and a closed console window (SIGHUP). POSIX SIGHUP keeps its default (and `nohup` can still ignore it).
 */
export function stopSignals(platform: NodeJS.Platform = process.platform): NodeJS.Signals[] {
  return ['SIGINT', 'SIGTERM', ...(platform === 'win32' ? (['SIGHUP', 'SIGBREAK'] as const) : [])]
}
