import Foundation

/// Why a plugin file was not loaded. The code is stable and machine-readable; the reason is for people.
public struct PluginRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    /// Stable refusal codes.
    public enum Code: String, Codable, Sendable, CaseIterable {
        /// Not a loadable shared object, or it does not export a usable entry table.
        case garbageFile = "garbage_file"
        /// Built against another ABI version, or its table is smaller than the smallest accepted (up to `invoke`).
        case abiMismatch = "abi_mismatch"
        /// The manifest is missing or does not decode.
        case badManifest = "bad_manifest"
        /// The policy does not allow the plugin's id.
        case notAllowed = "not_allowed"
        /// The policy does not list the file's SHA-256 (for its id, or at all in pinned mode).
        case digestMismatch = "digest_mismatch"
        /// Another file already provides a plugin with the same id.
        case duplicateID = "duplicate_id"
        /// The plugin's `create` returned no instance.
        case createFailed = "create_failed"
        /// The scanner process examining the file died (a signal, e.g. a crash in the plugin's
        /// initialisers or entry function, or an abnormal exit).
        case scanCrashed = "scan_crashed"
        /// The scanner process did not answer in time and was killed.
        case scanTimeout = "scan_timeout"
        /// The scanner process answered something that is not a scan report.
        case scanBadOutput = "scan_bad_output"
        /// No scanner executable is configured or it cannot be started: files are never opened in the
        /// server instead.
        case scannerUnavailable = "scanner_unavailable"
        /// The policy runs the plugin in a worker process and no worker executable is configured.
        case isolationUnavailable = "isolation_unavailable"
        /// A Swift plugin built by another toolchain than the worker's, or carrying a Swift runtime of its
        /// own: it would run on a runtime it was not built for. The reason names both runtimes.
        case swiftRuntimeMismatch = "swift_runtime_mismatch"
    }

    public var code: Code
    /// A short explanation, without secrets.
    public var reason: String

    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    public var description: String { "\(code.rawValue): \(reason)" }
}
