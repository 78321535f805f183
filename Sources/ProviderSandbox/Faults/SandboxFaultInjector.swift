/// The fault rules of one emulator, consumed as matching requests arrive.
public actor SandboxFaultInjector {
    private var rules: [SandboxFault] = []
    /// Whether the emulator applies `decline` rules to its payment requests.
    public nonisolated let declinesPayments: Bool

    /// Creates an empty rule list; `declinesPayments` when the emulator asks
    /// ``takeDecline(merchant:reference:)`` while creating a payment.
    public init(declinesPayments: Bool = false) {
        self.declinesPayments = declinesPayments
    }

    /// The kinds among `rules` this emulator cannot apply (the admin surface refuses them).
    public nonisolated func unsupportedKinds(in rules: [SandboxFault]) -> [SandboxFault.Kind] {
        declinesPayments ? [] : rules.map(\.kind).filter { $0 == .decline }
    }

    /// The rules still active, with their remaining counts.
    public var activeRules: [SandboxFault] { rules }

    /// Appends `newRules` after the existing ones.
    public func add(_ newRules: [SandboxFault]) {
        rules.append(contentsOf: newRules.filter { $0.count.map { $0 > 0 } ?? true })
    }

    /// Removes the rules naming `merchant`, or every rule when `merchant` is nil.
    public func clear(merchant: String? = nil) {
        guard let merchant else {
            rules.removeAll()
            return
        }
        rules.removeAll { $0.merchant == merchant }
    }

    /// The first request fault matching, with its count consumed.
    /// - Parameters:
    ///   - method: the request's HTTP method.
    ///   - path: the path inside the emulator (e.g. `/v1/charges`).
    ///   - fullPath: the full request path (e.g. `/citcon/v1/charges`).
    ///   - merchant: the merchant identified by the request, if any.
    func takeRequestFault(method: String, path: String, fullPath: String, merchant: String?) -> SandboxFault? {
        take { rule in
            guard ![.badSignature, .dropNotification, .decline].contains(rule.kind) else { return false }
            if let wanted = rule.method, wanted.uppercased() != method.uppercased() { return false }
            if let prefix = rule.pathPrefix, !path.hasPrefix(prefix), !fullPath.hasPrefix(prefix) { return false }
            if let wanted = rule.merchant, wanted != merchant { return false }
            return rule.selects(reference: nil)
        }
    }

    /// Whether the payment `reference` of `merchant` must be declined (consumes a count).
    /// - Parameters:
    ///   - merchant: the merchant creating the payment.
    ///   - reference: the merchant's reference of the payment, for a seeded rule's deterministic draw.
    public func takeDecline(merchant: String, reference: String?) -> Bool {
        take { rule in
            rule.kind == .decline && (rule.merchant == nil || rule.merchant == merchant)
                && rule.selects(reference: reference)
        } != nil
    }

    /// Whether the next notification to `merchant` must carry a wrong signature (consumes a count).
    func takeBadSignature(merchant: String) -> Bool {
        take { $0.kind == .badSignature && ($0.merchant == nil || $0.merchant == merchant) } != nil
    }

    /// Whether the next notification to `merchant` is lost (consumes a count).
    func takeDroppedNotification(merchant: String) -> Bool {
        take { $0.kind == .dropNotification && ($0.merchant == nil || $0.merchant == merchant) } != nil
    }

    private func take(where matches: (SandboxFault) -> Bool) -> SandboxFault? {
        guard let index = rules.firstIndex(where: matches) else { return nil }
        let rule = rules[index]
        if let count = rule.count {
            if count <= 1 {
                rules.remove(at: index)
            } else {
                rules[index].count = count - 1
            }
        }
        return rule
    }
}
