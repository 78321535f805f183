import Foundation
import ProviderKit

/// A merchant's request to create a payment, validated.
public struct NewPayment: Sendable, Equatable {
    public var amount: Int64
    public var currency: String
    public var country: String
    /// The payment method; nil only when paying with a stored credential, whose method then applies.
    public var method: String?
    public var reference: String
    public var captureMode: CaptureMode
    public var customerId: String?
    public var returnURL: String?
    public var paymentData: [String: JSONValue]
    /// Pay with this stored credential (`pm_…`) instead of a new session; routed to the account that issued it.
    public var paymentMethodId: String?
    /// Ask the provider to set up a stored credential for the customer with this payment.
    public var savePaymentMethod: Bool
    /// The merchant's key-value pairs, checked.
    public var metadata: Metadata
    /// The merchant's free-text description, at most ``ResourceDescription/maximumLength`` characters.
    public var merchantDescription: String?
    /// The mode of the key that creates the payment: it routes only to accounts of that mode.
    public var livemode = false

    /// Validates raw fields; throws ``CoreError`` with a stable code for the first problem found.
    public init(
        amount: Int64, currency: String, country: String, method: String?, reference: String,
        captureMode: CaptureMode = .automatic, customerId: String? = nil, returnURL: String? = nil,
        paymentData: [String: JSONValue] = [:], paymentMethodId: String? = nil, savePaymentMethod: Bool = false,
        metadata: Metadata = .empty, merchantDescription: String? = nil
    ) throws {
        try Self.validate(amount: amount, currency: currency, country: country)
        if let method {
            guard Self.isMethodName(method) else {
                throw CoreError(.invalidMethod, "method must be a lower-case payment method name", param: "method")
            }
        } else if paymentMethodId == nil {
            throw CoreError(.missingField, "the field 'method' is required", param: "method")
        }
        guard !reference.isEmpty, reference.count <= 128 else {
            throw CoreError(.invalidReference, "reference must be 1 to 128 characters", param: "reference")
        }
        try Self.validate(customerId: customerId)
        if let returnURL { try Self.validateReturnURL(returnURL) }
        try ResourceDescription.validate(merchantDescription)
        self.amount = amount
        self.currency = currency
        self.country = country
        self.method = method
        self.reference = reference
        self.captureMode = captureMode
        self.customerId = customerId
        self.returnURL = returnURL
        self.paymentData = paymentData
        self.paymentMethodId = paymentMethodId
        self.savePaymentMethod = savePaymentMethod
        self.metadata = metadata
        self.merchantDescription = merchantDescription
    }

    /// Checks what any payment has: a known currency, a positive amount in minor units up to
    /// ``Currency/maximumAmount`` and a country code; throws ``CoreError`` with a stable code otherwise.
    public static func validate(amount: Int64, currency: String, country: String) throws {
        guard Currency.named(currency) != nil else {
            throw CoreError(.invalidCurrency, "currency must be an upper-case ISO 4217 code", param: "currency")
        }
        guard amount > 0 else {
            throw CoreError(.invalidAmount, "amount must be a positive integer in minor units", param: "amount")
        }
        guard amount <= Currency.maximumAmount else {
            throw CoreError(
                .invalidAmount, "amount is larger than \(Currency.maximumAmount) minor units", param: "amount")
        }
        guard isCountryCode(country) else {
            throw CoreError(
                .invalidCountry, "country must be an upper-case ISO 3166-1 alpha-2 code", param: "country")
        }
    }

    /// Checks a merchant's customer id: 1 to 128 characters; throws `invalid_customer` otherwise.
    public static func validate(customerId: String?) throws {
        if let customerId, customerId.isEmpty || customerId.count > 128 {
            throw CoreError(.invalidCustomer, "customer must be 1 to 128 characters", param: "customer")
        }
    }

    /// The longest `return_url` accepted, in bytes.
    public static let maximumReturnURLBytes = 2048

    /// Checks a shopper-facing `return_url`: an absolute `http` or `https` URL with a host, at most
    /// ``maximumReturnURLBytes`` bytes, without credentials; throws `invalid_return_url` otherwise.
    public static func validateReturnURL(_ text: String) throws {
        guard text.utf8.count <= maximumReturnURLBytes else {
            throw CoreError(
                .invalidReturnURL, "return_url must be at most \(maximumReturnURLBytes) bytes", param: "return_url")
        }
        guard let url = URLComponents(string: text), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty
        else {
            throw CoreError(.invalidReturnURL, "return_url must be an absolute http or https URL", param: "return_url")
        }
        guard url.user == nil, url.password == nil else {
            throw CoreError(.invalidReturnURL, "return_url must not contain credentials", param: "return_url")
        }
    }

    /// Whether `code` is an upper-case ISO 3166-1 alpha-2 country code.
    public static func isCountryCode(_ code: String) -> Bool {
        code.count == 2 && code.allSatisfy { $0.isASCII && $0.isUppercase }
    }

    /// Whether `name` is a payment method name: 1 to 40 lower-case letters, digits or `_`.
    public static func isMethodName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 40
            && name.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "_") }
    }
}
