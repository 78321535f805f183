import Foundation

/// What `switchyard plugins check` found: one row per check, each passed, failed (with what to fix) or
/// skipped (with why).
struct CertificationReport: Codable, Sendable {
    /// One check's verdict.
    struct Check: Codable, Sendable, Equatable {
        enum Verdict: String, Codable, Sendable {
            case pass, fail, skip
        }

        var name: String
        var verdict: Verdict
        var detail: String

        static func pass(_ name: String, _ detail: String = "") -> Check {
            Check(name: name, verdict: .pass, detail: detail)
        }
        static func fail(_ name: String, _ detail: String) -> Check {
            Check(name: name, verdict: .fail, detail: detail)
        }
        static func skip(_ name: String, _ detail: String) -> Check {
            Check(name: name, verdict: .skip, detail: detail)
        }
    }

    var file: String
    var plugin: String?
    var scenario: String?
    var checks: [Check] = []

    /// True when no check failed.
    var passed: Bool { !checks.contains { $0.verdict == .fail } }

    private enum CodingKeys: String, CodingKey {
        case file, plugin, scenario, checks, passed
    }

    init(file: String, plugin: String? = nil, scenario: String? = nil) {
        self.file = file
        self.plugin = plugin
        self.scenario = scenario
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        file = try container.decode(String.self, forKey: .file)
        plugin = try container.decodeIfPresent(String.self, forKey: .plugin)
        scenario = try container.decodeIfPresent(String.self, forKey: .scenario)
        checks = try container.decode([Check].self, forKey: .checks)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(file, forKey: .file)
        try container.encodeIfPresent(plugin, forKey: .plugin)
        try container.encodeIfPresent(scenario, forKey: .scenario)
        try container.encode(checks, forKey: .checks)
        try container.encode(passed, forKey: .passed)
    }

    /// The report as a table: check, verdict, and what to fix (or why it was skipped).
    var table: String {
        let width = min(56, checks.map(\.name.count).max() ?? 5)
        var lines = ["\(pad("check", width))  verdict  detail"]
        for check in checks {
            lines.append("\(pad(check.name, width))  \(pad(check.verdict.rawValue, 7))  \(check.detail)")
        }
        let failed = checks.filter { $0.verdict == .fail }.count
        let skipped = checks.filter { $0.verdict == .skip }.count
        lines.append("")
        let name = plugin ?? file
        lines.append(
            passed
                ? "\(name): certified (\(checks.count - skipped) of \(checks.count) checks passed, \(skipped) skipped)"
                : "\(name): not certified (\(failed) of \(checks.count) checks failed)")
        return lines.joined(separator: "\n")
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}
