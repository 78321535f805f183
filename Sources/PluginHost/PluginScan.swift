import CPluginSandbox
import CSwitchyardPlugin
import Foundation
import PluginWorkerCore
import ProviderKit

#if canImport(Glibc)
    import Glibc
#endif

/// The scanner's side: what `switchyard plugin-scan FILE` does in its disposable process.
public enum PluginScan {
    /// The CPU seconds a scanner process may use.
    static let cpuSeconds: UInt32 = 10

    /// Restricts this process, opens `path` the way the host would, reads its table and manifest,
    /// writes the report as one JSON line to the original standard output and ends the process at once
    /// (no exit handlers: the plugin's destructors never run). Meant only for a process of its own: the
    /// file's initialisers and entry function run here.
    ///
    /// Before the file is opened: inherited descriptors are closed, core dumps disabled, the process
    /// dies with its parent and its CPU time is capped; standard output is moved aside (what the
    /// plugin prints goes nowhere) and the seccomp filter is installed (no file writes, no network, no
    /// new programs or processes).
    public static func runAndExit(path: String) -> Never {
        sy_sandbox_prepare(cpuSeconds)
        let reportDescriptor = dup(1)
        let null = open("/dev/null", O_WRONLY)
        if null >= 0 {
            dup2(null, 1)
            dup2(null, 2)
            close(null)
        }
        let sandbox: PluginScanReport.Sandbox
        if sy_sandbox_restrict() == 0 {
            sandbox = .init(restricted: true)
        } else {
            sandbox = .init(restricted: false, problem: String(cString: strerror(errno)))
        }
        let report = scan(path, sandbox: sandbox)
        var line = (try? PluginJSON.encoder().encode(report)) ?? Data()
        line.append(UInt8(ascii: "\n"))
        line.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = write(reportDescriptor, raw.baseAddress! + offset, raw.count - offset)
                if written <= 0 { break }
                offset += written
            }
        }
        _exit(0)
    }

    /// Opens `path` and reports its table and manifest, or why it is refused.
    static func scan(_ path: String, sandbox: PluginScanReport.Sandbox) -> PluginScanReport {
        do throws(PluginRefusal) {
            let table = try PluginImage.open(path)
            let manifest = try PluginImage.manifest(of: table)
            return PluginScanReport(
                sandbox: sandbox, manifest: manifest,
                table: .init(
                    abiVersion: table.entries.abi_version, structSize: table.structSize, entries: table.entryNames))
        } catch {
            return PluginScanReport(sandbox: sandbox, refusal: .init(code: error.code.rawValue, reason: error.reason))
        }
    }
}
