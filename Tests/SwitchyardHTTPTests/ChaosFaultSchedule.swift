import Foundation
import ProviderSandbox

@testable import SwitchyardCore

/// A seeded schedule of sandbox faults for one stream of calls (one method and path prefix of one
/// merchant). The sandbox applies the first matching rule and consumes its count, so the schedule is a
/// list of rules: a pass-through rule (`latency` of 0 ms) with a count lets that many calls through, a
/// fault rule with a count of 1 hits the next one. The same seed gives the same sequence of faults, call
/// after call; after the last rule every call goes through untouched, so the run can settle.
struct ChaosFaultSchedule {
    /// Every fault the sandbox applies to requests.
    static let requestKinds: [SandboxFault.Kind] = [
        .http500, .http503, .reset, .timeoutBeforeProcessing, .timeoutAfterProcessing, .malformed, .unavailable,
        .latency,
    ]

    var rules: [SandboxFault] = []
    /// How many faults of each kind the schedule holds.
    var counts: [SandboxFault.Kind: Int] = [:]

    /// A schedule over the next `calls` calls of a stream, `percent` of them faulty, the kind drawn from
    /// ``requestKinds``. Timeouts hold the answer `holdMs`; latency waits `latencyMs`.
    init(
        method: String, pathPrefix: String, merchant: String, calls: Int, percent: Int, holdMs: Int, latencyMs: Int,
        generator: inout SplitMix64
    ) {
        var passing = 0
        func flush() {
            guard passing > 0 else { return }
            rules.append(
                SandboxFault(
                    kind: .latency, method: method, pathPrefix: pathPrefix, merchant: merchant, count: passing,
                    latencyMs: 0))
            passing = 0
        }
        for _ in 0..<calls {
            guard Int(generator.next() % 100) < percent else {
                passing += 1
                continue
            }
            flush()
            let kind = Self.requestKinds[Int(generator.next() % UInt64(Self.requestKinds.count))]
            let delay: Int? =
                switch kind {
                case .timeoutBeforeProcessing, .timeoutAfterProcessing: holdMs
                case .latency: latencyMs
                default: nil
                }
            rules.append(
                SandboxFault(
                    kind: kind, method: method, pathPrefix: pathPrefix, merchant: merchant, count: 1,
                    latencyMs: delay))
            counts[kind, default: 0] += 1
        }
        flush()
    }
}
