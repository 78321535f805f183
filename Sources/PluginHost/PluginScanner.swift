import Foundation
import Logging
import PluginWorkerCore
import ProviderKit
import Synchronization

/// Examines plugin files in disposable scanner processes (`switchyard plugin-scan FILE`), so that a
/// file's code never runs in the server before the file is accepted.
///
/// The scanner is killed when it does not answer within ``timeout``; its output is read up to a bound.
/// A scanner that dies (a signal, e.g. a crash in the plugin's entry function), hangs or answers
/// something else than a report is a refusal with a stable code. The scanner is started and awaited
/// with swift-subprocess (``ScannerRun``): no thread blocks while it runs.
public struct PluginScanner: Sendable {
    /// The `switchyard` executable whose `plugin-scan` subcommand examines a file.
    public let executable: PluginExecutable
    /// How long a scan may take before the scanner is killed.
    public let timeout: Duration
    private let logger: Logger

    /// The most output read from a scanner (a report holds a manifest of at most 1 MiB).
    static let maximumOutputBytes = 4 << 20

    public init(executable: PluginExecutable, timeout: Duration = .seconds(5), logger: Logger) {
        self.executable = executable
        self.timeout = timeout
        self.logger = logger
    }

    /// Scans `path` and returns the report of an acceptable file.
    ///
    /// - Throws: the scanner's refusal (`garbage_file`, `abi_mismatch`, `bad_manifest`), or
    ///   `scan_crashed`, `scan_timeout`, `scan_bad_output`, `scanner_unavailable`.
    public func scan(_ path: String) async throws(PluginRefusal) -> PluginScanReport {
        let run = ScannerRun(
            executable: executable.path, arguments: ["plugin-scan", path], timeout: timeout,
            maximumOutput: Self.maximumOutputBytes)
        return try interpret(await run.run())
    }

    /// Turns what happened to the scanner process into a report or a refusal.
    func interpret(_ outcome: ScannerRun.Outcome) throws(PluginRefusal) -> PluginScanReport {
        switch outcome {
        case .notStarted(let error):
            throw PluginRefusal(
                .scannerUnavailable,
                "the scanner \(executable.path) could not be started (\(Self.describe(errno: error)))")
        case .timedOut:
            throw PluginRefusal(.scanTimeout, "the scanner did not answer within \(timeout) and was killed")
        case .tooMuchOutput:
            throw PluginRefusal(.scanBadOutput, "the scanner wrote more than \(Self.maximumOutputBytes) bytes")
        case .signaled(let signal, _):
            throw PluginRefusal(
                .scanCrashed,
                "the scanner died of signal \(signal) (\(Self.signalName(signal))) while examining the file")
        case .exited(let status, _) where status != 0:
            throw PluginRefusal(.scanCrashed, "the scanner exited with status \(status) while examining the file")
        case .exited(_, let output):
            let report = try Self.report(from: output)
            warnIfUnrestricted(report.sandbox)
            return report
        }
    }

    /// Decodes and checks a report: either a refusal with a code a scanner may give, or a valid
    /// manifest with a usable table.
    static func report(from output: Data) throws(PluginRefusal) -> PluginScanReport {
        let lines = output.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)
        guard lines.count == 1, let report = try? PluginJSON.decode(PluginScanReport.self, from: lines[0])
        else {
            throw PluginRefusal(.scanBadOutput, "the scanner's output is not one scan report")
        }
        if let refusal = report.refusal {
            guard report.manifest == nil, let code = PluginRefusal.Code(rawValue: refusal.code),
                PluginScanReport.scannerCodes.contains(code)
            else {
                throw PluginRefusal(.scanBadOutput, "the scanner's report holds an unknown refusal")
            }
            throw PluginRefusal(code, String(refusal.reason.prefix(300)))
        }
        guard let manifest = report.manifest, let table = report.table else {
            throw PluginRefusal(.scanBadOutput, "the scanner's report has neither a manifest nor a refusal")
        }
        try PluginImage.validate(manifest)
        guard Int(table.structSize) >= PluginTable.minimumSize,
            ["create", "destroy", "invoke"].allSatisfy(table.entries.contains)
        else {
            throw PluginRefusal(.scanBadOutput, "the scanner's report describes an unusable table")
        }
        return report
    }

    private func warnIfUnrestricted(_ sandbox: PluginScanReport.Sandbox) {
        guard !sandbox.restricted, UnrestrictedScanWarning.shared.firstTime() else { return }
        logger.warning(
            "plugin scanner could not restrict itself: plugin initialisers run without the seccomp filter",
            metadata: ["plugin.scan.problem": "\(sandbox.problem ?? "unknown")"])
    }

    static func signalName(_ signal: Int32) -> String {
        switch signal {
        case SIGSEGV: return "SIGSEGV"
        case SIGBUS: return "SIGBUS"
        case SIGILL: return "SIGILL"
        case SIGFPE: return "SIGFPE"
        case SIGABRT: return "SIGABRT"
        case SIGKILL: return "SIGKILL"
        case SIGSYS: return "SIGSYS"
        case SIGTRAP: return "SIGTRAP"
        case SIGXCPU: return "SIGXCPU"
        default: return "signal \(signal)"
        }
    }

    static func describe(errno error: Int32) -> String {
        String(cString: strerror(error))
    }
}

/// Remembers that the unrestricted-scanner warning was logged, so it is logged once per process.
final class UnrestrictedScanWarning: Sendable {
    static let shared = UnrestrictedScanWarning()
    private let warned = Mutex(false)

    func firstTime() -> Bool {
        warned.withLock { warned in
            if warned { return false }
            warned = true
            return true
        }
    }
}
