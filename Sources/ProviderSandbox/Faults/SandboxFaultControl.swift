/// Fault injection on an emulator's wire API, the same for every provider.
public protocol SandboxFaultControl: Sendable {
    /// The emulator's fault rules.
    var faults: SandboxFaultInjector { get }
}

extension SandboxFaultControl {
    /// Appends fault rules (see ``SandboxFault``); a rule's `merchant` is the id the emulator knows the
    /// merchant by (Citcon merchant id, Worldline merchant id, Antom client id).
    public func addFaults(_ rules: [SandboxFault]) async {
        await faults.add(rules)
    }

    /// Removes the fault rules naming `merchant`, or all rules when `merchant` is nil.
    public func clearFaults(merchant: String? = nil) async {
        await faults.clear(merchant: merchant)
    }

    /// The fault rules still active, with their remaining counts.
    public func activeFaults() async -> [SandboxFault] {
        await faults.activeRules
    }
}
