import Foundation
import ProviderKit

/// Whether one account can take a payment: the decision routing makes for every account of the matching
/// rule, and payment options explain. Pure: no I/O, no clock.
public enum PaymentEligibility {
    /// Why an account, or a method as a whole, cannot take a payment.
    public enum Reason: String, Codable, Sendable, CaseIterable {
        /// The method can only be paid with a stored payment method (its manifest's
        /// `requiresStoredMethod`), and the customer named has none usable, or no customer was named.
        case storedMethodRequired = "stored_method_required"
        /// Every account that could take it has its circuit breaker open.
        case breakerOpen = "breaker_open"
        /// The amount is below the plugin's minimum for the method and currency.
        case amountBelowMinimum = "amount_below_minimum"
        /// The amount is above the plugin's maximum for the method and currency.
        case amountAboveMaximum = "amount_above_maximum"
        /// The plugin does not offer the method in the payment's currency.
        case currencyNotSupported = "currency_not_supported"
        /// The plugin does not offer the method in the payment's country.
        case countryNotSupported = "country_not_supported"
        /// The plugin does not offer the method.
        case methodNotSupported = "method_not_supported"
        /// The plugin cannot authorise payments.
        case pluginCannotAuthorize = "plugin_cannot_authorize"
        /// The account's plugin is not loaded.
        case pluginNotLoaded = "plugin_not_loaded"
        /// The account is disabled.
        case accountDisabled = "account_disabled"
        /// A rule names an account that does not exist.
        case accountMissing = "account_missing"
        /// No routing rule matches the payment.
        case noRule = "no_rule"

        /// How close to being payable a payment excluded for this reason is: lower is closer. Of the
        /// accounts a rule names, the closest reason explains why a method is not offered.
        public var closeness: Int { Self.allCases.firstIndex(of: self) ?? Self.allCases.count }
    }

    /// Why something cannot take a payment: a stable reason and a message for people.
    public struct Ineligibility: Sendable, Equatable {
        public var reason: Reason
        public var message: String

        public init(_ reason: Reason, _ message: String) {
            self.reason = reason
            self.message = message
        }
    }

    /// Why `candidate` cannot take `payment` whatever its health, or nil when it can: the account must
    /// be enabled and its plugin loaded, able to authorise and offering the payment's method in its
    /// currency and country, within the method's amount limits for the currency.
    public static func ineligibility(of candidate: RoutingCandidate, for payment: PaymentDescription)
        -> Ineligibility?
    {
        guard candidate.account.enabled else { return Ineligibility(.accountDisabled, "account disabled") }
        guard let manifest = candidate.manifest else {
            return Ineligibility(.pluginNotLoaded, "plugin \(candidate.account.pluginId) is not loaded")
        }
        guard manifest.flows.contains(.authorize) else {
            return Ineligibility(.pluginCannotAuthorize, "plugin cannot authorize")
        }
        guard let support = manifest.support(for: payment.method) else {
            return Ineligibility(.methodNotSupported, "plugin does not support method \(payment.method)")
        }
        if !manifest.currencies.isEmpty && !manifest.currencies.contains(payment.currency) {
            return Ineligibility(.currencyNotSupported, "plugin does not support currency \(payment.currency)")
        }
        if !support.currencies.isEmpty && !support.currencies.contains(payment.currency) {
            return Ineligibility(
                .currencyNotSupported, "plugin does not support \(payment.method) in \(payment.currency)")
        }
        if !manifest.countries.isEmpty && !manifest.countries.contains(payment.country) {
            return Ineligibility(.countryNotSupported, "plugin does not support country \(payment.country)")
        }
        if !support.countries.isEmpty && !support.countries.contains(payment.country) {
            return Ineligibility(
                .countryNotSupported, "plugin does not support \(payment.method) in country \(payment.country)")
        }
        return limitViolation(support.amountLimits[payment.currency], payment: payment)
    }

    /// Why `payment`'s amount is outside `limit`, or nil when it is within (or there is no limit).
    static func limitViolation(_ limit: AmountLimit?, payment: PaymentDescription) -> Ineligibility? {
        if let min = limit?.min, payment.amount < min {
            return Ineligibility(
                .amountBelowMinimum,
                "amount below \(Currency.formatted(min, payment.currency)), the least \(payment.method) takes")
        }
        if let max = limit?.max, payment.amount > max {
            return Ineligibility(
                .amountAboveMaximum,
                "amount above \(Currency.formatted(max, payment.currency)), the most \(payment.method) takes")
        }
        return nil
    }
}
