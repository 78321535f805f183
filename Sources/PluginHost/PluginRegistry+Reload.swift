import Foundation
import Logging
import Metrics
import ProviderKit
import SwitchyardObservability

extension PluginRegistry {
    /// A file to examine in this reload: its bytes as read and their digest.
    struct PendingFile: Sendable {
        var path: String
        var contents: Data
        var sha256: String
    }

    /// Scans the directory once and applies what changed. Reloads run one after another.
    @discardableResult
    public func reload() async -> ReloadReport {
        let previous = reloading
        let task = Task { () -> ReloadReport in
            _ = await previous?.value
            return await self.reloadNow()
        }
        reloading = task
        return await task.value
    }

    /// One reload: files that disappeared are unloaded; every new or changed file (and every file
    /// refused as a duplicate, when something changed) is scanned; then each claimed id is decided and
    /// only the winners are opened, in id order.
    private func reloadNow() async -> ReloadReport {
        rescanNeeded = false
        var report = ReloadReport()
        let present = FileFingerprint.scan(directory)
        var somethingChanged = false
        for path in files.keys.sorted() where present[path] == nil {
            if let plugin = files[path]?.plugin, unserve(plugin, from: path) {
                report.removed.append(plugin.id)
                logger.info("plugin unloaded", metadata: ["plugin.id": "\(plugin.id)", "plugin.file": "\(path)"])
            }
            files[path] = nil
            somethingChanged = true
        }
        var pending: [PendingFile] = []
        var unchanged: [String] = []
        for path in present.keys.sorted() {
            switch inspect(path, fingerprint: present[path]!, into: &report) {
            case .unchanged: unchanged.append(path)
            case .changed(let file): pending.append(file)
            case .unreadable: somethingChanged = true
            }
        }
        if somethingChanged || !pending.isEmpty {
            // A file refused as a duplicate may win now that another claimant changed or went away.
            for path in unchanged where files[path]?.refusal?.code == PluginRefusal.Code.duplicateID.rawValue {
                if let contents = FileManager.default.contents(atPath: path) {
                    pending.append(PendingFile(path: path, contents: contents, sha256: FileDigest.sha256Hex(contents)))
                }
            }
        }
        let examined = Set(pending.map(\.path))
        report.unchanged = unchanged.filter { !examined.contains($0) }
        guard !pending.isEmpty else { return report }
        pending.sort { $0.path < $1.path }
        logger.info(
            "plugin files to examine",
            metadata: ["plugin.files": "\(pending.map { URL(fileURLWithPath: $0.path).lastPathComponent })"])
        let candidates = await scan(pending, into: &report)
        await decide(candidates, into: &report)
        return report
    }

    private enum Inspection {
        case unchanged
        case changed(PendingFile)
        case unreadable
    }

    /// Compares `path` with its record: unchanged files are skipped (a touched file with the same
    /// bytes included, unless it must be examined again).
    private func inspect(_ path: String, fingerprint: FileFingerprint, into report: inout ReloadReport)
        -> Inspection
    {
        var record = files[path] ?? FileRecord()
        if record.fingerprint == fingerprint {
            return .unchanged
        }
        guard let contents = FileManager.default.contents(atPath: path) else {
            record.fingerprint = fingerprint
            record.refusal = refusalRecord(path, PluginRefusal(.garbageFile, "the file cannot be read"))
            report.refused.append(record.refusal!)
            logger.warning("plugin file unreadable", metadata: ["plugin.file": "\(path)"])
            files[path] = record
            return .unreadable
        }
        let digest = FileDigest.sha256Hex(contents)
        let wasRetry = record.fingerprint == nil && record.sha256 != nil
        record.fingerprint = fingerprint
        defer { files[path] = record }
        if record.sha256 == digest && !wasRetry {
            return .unchanged
        }
        record.sha256 = digest
        return .changed(PendingFile(path: path, contents: contents, sha256: digest))
    }

    /// Scans every pending file (a few at a time, each in its own scanner process) and checks it
    /// against the policy; refusals are recorded, the accepted candidates returned by file.
    private func scan(_ pending: [PendingFile], into report: inout ReloadReport) async -> [String: PluginCandidate] {
        let loader: PluginLoader
        do {
            loader = try currentLoader()
        } catch {
            for file in pending { record(error, for: file.path, into: &report) }
            return [:]
        }
        let policy = self.policy
        var outcomes: [String: Result<PluginCandidate, PluginRefusal>] = [:]
        for batch in stride(from: 0, to: pending.count, by: Self.concurrentScans) {
            let slice = pending[batch..<min(batch + Self.concurrentScans, pending.count)]
            await withTaskGroup(of: (String, Result<PluginCandidate, PluginRefusal>).self) { group in
                for file in slice {
                    group.addTask {
                        do throws(PluginRefusal) {
                            let candidate = try await loader.examine(
                                file: file.path, contents: file.contents, sha256: file.sha256, policy: policy)
                            return (file.path, .success(candidate))
                        } catch {
                            return (file.path, .failure(error))
                        }
                    }
                }
                for await (path, outcome) in group {
                    outcomes[path] = outcome
                }
            }
        }
        var candidates: [String: PluginCandidate] = [:]
        for path in outcomes.keys.sorted() {
            switch outcomes[path]! {
            case .success(let candidate): candidates[path] = candidate
            case .failure(let refusal): record(refusal, for: path, into: &report)
            }
        }
        return candidates
    }

    /// How many scanner processes run at once.
    static var concurrentScans: Int { 4 }

    /// Decides each claimed id, in id order, and opens the winners.
    private func decide(_ candidates: [String: PluginCandidate], into report: inout ReloadReport) async {
        guard let loader = try? currentLoader() else { return }
        var claimsByID: [String: [PluginIDDecision.Claim]] = [:]
        for path in candidates.keys.sorted() {
            let candidate = candidates[path]!
            claimsByID[candidate.id, default: []].append(.init(file: path, sha256: candidate.sha256))
        }
        for id in claimsByID.keys.sorted() {
            var claims = claimsByID[id]!
            let holder = byID[id]
            if let holder, !claims.contains(where: { $0.file == holder.filePath }) {
                claims.append(.init(file: holder.filePath, sha256: holder.sha256))
            }
            let decision = PluginIDDecision.decide(
                id: id, claims: claims, serving: holder?.filePath, pinned: policy.pinnedDigests(for: id))
            logger.info(
                "plugin id decided",
                metadata: [
                    "plugin.id": "\(id)", "plugin.file": "\(decision.winner ?? "none")",
                    "plugin.refused": "\(decision.refused.keys.sorted())",
                ])
            for file in decision.refused.keys.sorted() {
                let refusal = decision.refused[file]!
                if let candidate = candidates[file] {
                    loader.refuse(candidate, refusal)
                    record(refusal, for: file, into: &report)
                } else if let holder, holder.filePath == file, unserve(holder, from: file) {
                    // A pinned build outranks the unpinned one serving.
                    report.removed.append(id)
                    files[file]?.plugin = nil
                    record(refusal, for: file, into: &report)
                }
            }
            if let winner = decision.winner, let candidate = candidates[winner] {
                await serve(candidate, loader: loader, into: &report)
            }
        }
    }

    /// Opens a decided candidate and serves it in place of what its file provided before.
    private func serve(_ candidate: PluginCandidate, loader: PluginLoader, into report: inout ReloadReport) async {
        let path = candidate.file
        do throws(PluginRefusal) {
            let plugin = try await open(candidate, loader: loader)
            var record = files[path] ?? FileRecord()
            if let old = record.plugin, old.id != plugin.id, unserve(old, from: path) {
                report.removed.append(old.id)
            }
            byID[plugin.id] = plugin
            record.plugin = plugin
            record.refusal = nil
            files[path] = record
            report.loaded.append(PluginsSnapshot.Loaded(plugin))
            Counter(label: MetricName.pluginLoads, dimensions: [("plugin", plugin.id)]).increment()
        } catch {
            record(error, for: path, into: &report)
        }
    }

    /// Opens a candidate under the registry's run settings (a worker's handshake is awaited, an in-process
    /// `create` runs on a thread of its own).
    private func open(_ candidate: PluginCandidate, loader: PluginLoader) async throws(PluginRefusal) -> LoadedPlugin {
        var settings = runSettings
        settings.executable = executable
        settings.policy = policy
        let hostServices = hostServices
        let outcome: Result<LoadedPlugin, PluginRefusal> = await PluginRunSettings.$current.withValue(settings) {
            do throws(PluginRefusal) {
                return .success(try await loader.open(candidate, hostServices: hostServices, now: hostServices.now()))
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    /// Records a refusal of `path`; any earlier build of it keeps serving.
    private func record(_ refusal: PluginRefusal, for path: String, into report: inout ReloadReport) {
        var record = files[path] ?? FileRecord()
        record.refusal = refusalRecord(path, refusal)
        files[path] = record
        report.refused.append(record.refusal!)
        Counter(label: MetricName.pluginRefusals, dimensions: [("reason", refusal.code.rawValue)]).increment()
    }
}
