// `previewctl watch`: a line per change, for status bars, that outlives
// the daemon: it waits for previewd to come up and reconnects when it
// restarts, saying meanwhile that it is not running.
import PreviewControl
import PreviewCore
import PreviewPlatform

/// The line a bar shows while no previewd answers.
let notRunning = "previewd not running"

/// Prints one line per record of the daemon's events stream (a record that
/// changes nothing the format shows prints nothing, except ticks); while
/// the daemon is away, one `previewd not running` line (a JSON `state` of
/// `not running`), then it tries again every second. Exits only on a
/// usage error (64) or a refusal (1).
func watch(path: String, timeout: Double, format: String, json: Bool, interval: Double?) -> Never {
    var last = ""
    while true {
        let connection: Connection
        do { connection = try Connection(path: path, timeout: timeout) } catch {
            if error.code == 64 { fail(error.message, 64) }
            let line = json ? StatusFormat.json(["state": "not running"]) : notRunning
            if line != last {
                out(line + "\n")
                last = line
            }
            ThisProcess.sleep(seconds: 1)
            continue
        }
        connection.events(interval: interval) { record in
            let values = StatusFormat.values(event: record)
            let line = json ? StatusFormat.json(values) : StatusFormat.render(format, values)
            if line != last || record["event"] == "tick" {
                out(line + "\n")
                last = line
            }
        }
        connection.close()
    }
}
