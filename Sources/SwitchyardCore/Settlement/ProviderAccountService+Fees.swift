import Foundation

extension ProviderAccountService {
    /// The most currencies an account may declare fees for.
    public static let maximumFeeCurrencies = 50

    /// `400 invalid_currency` for a key that is not a known ISO 4217 code; `400 invalid_field` for more than
    /// ``maximumFeeCurrencies`` entries, a fixed part outside 0…``FeeModel/maximumFixed`` or basis points
    /// outside 0…``FeeModel/maximumBasisPoints``.
    public static func validateFees(_ fees: [String: FeeModel]) throws {
        guard fees.count <= maximumFeeCurrencies else {
            throw CoreError(.invalidField, "fees may name at most \(maximumFeeCurrencies) currencies")
        }
        for (code, model) in fees.sorted(by: { $0.key < $1.key }) {
            guard Currency.named(code) != nil else {
                throw CoreError(.invalidCurrency, "fees: '\(code.prefix(8))' is not an upper-case ISO 4217 code")
            }
            guard (0...FeeModel.maximumFixed).contains(model.fixed) else {
                throw CoreError(.invalidField, "fees.\(code).fixed must be between 0 and \(FeeModel.maximumFixed)")
            }
            guard (0...FeeModel.maximumBasisPoints).contains(model.basisPoints) else {
                throw CoreError(
                    .invalidField, "fees.\(code).basis_points must be between 0 and \(FeeModel.maximumBasisPoints)")
            }
        }
    }
}
