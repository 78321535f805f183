import Foundation

/// The OpenAPI 3.1 document of every route Switchyard serves (a test checks it against the router).
enum OpenAPIDocument {
    static let json = Data(text.utf8)

    static let text = #"""
        {
         "components": {
          "responses": {
           "Error": {
            "content": {
             "application/json": {
              "schema": {
               "$ref": "#/components/schemas/Error"
              }
             }
            },
            "description": "error"
           }
          },
          "schemas": {
           "APIKey": {
            "properties": {
             "id": {
              "type": "string"
             },
             "prefix": {
              "type": "string"
             },
             "scopes": {
              "items": {
               "type": "string"
              },
              "type": "array"
             },
             "secret": {
              "description": "only in the creation response",
              "type": "string"
             }
            },
            "type": "object"
           },
           "Amount": {
            "properties": {
             "amount": {
              "minimum": 1,
              "type": "integer"
             },
             "reason": {
              "type": "string"
             }
            },
            "type": "object"
           },
           "ClientSession": {
            "description": "A session handed to the app for a provider's mobile SDK; next_action only while live (GET …/session).",
            "properties": {
             "customer": {
              "type": "string"
             },
             "expires_at": {
              "format": "date-time",
              "type": "string"
             },
             "next_action": {
              "type": "object"
             },
             "object": {
              "enum": [
               "client_session"
              ],
              "type": "string"
             },
             "payment": {
              "type": "string"
             },
             "payment_method": {
              "type": "string"
             },
             "plugin": {
              "type": "string"
             },
             "provider_account": {
              "type": "string"
             },
             "renewable": {
              "type": "boolean"
             },
             "status": {
              "enum": [
               "live",
               "expired"
              ],
              "type": "string"
             },
             "type": {
              "type": "string"
             }
            },
            "type": "object"
           },
           "CreatePayment": {
            "properties": {
             "amount": {
              "description": "minor units of the currency",
              "minimum": 1,
              "type": "integer"
             },
             "capture_mode": {
              "enum": [
               "automatic",
               "manual"
              ]
             },
             "country": {
              "pattern": "^[A-Z]{2}$",
              "type": "string"
             },
             "currency": {
              "pattern": "^[A-Z]{3}$",
              "type": "string"
             },
             "customer": {
              "type": "string"
             },
             "method": {
              "type": "string"
             },
             "payment_data": {
              "type": "object"
             },
             "payment_method": {
              "description": "pay with this stored payment method (pm_…) of the customer; routed to the account that issued it, method then optional",
              "type": "string"
             },
             "reference": {
              "maxLength": 128,
              "type": "string"
             },
             "return_url": {
              "type": "string"
             },
             "save_payment_method": {
              "description": "ask the provider to set up a stored payment method for the customer (needs customer)",
              "type": "boolean"
             }
            },
            "required": [
             "amount",
             "currency",
             "country",
             "reference"
            ],
            "type": "object"
           },
           "Error": {
            "properties": {
             "error": {
              "properties": {
               "code": {
                "type": "string"
               },
               "issues": {
                "items": {
                 "$ref": "#/components/schemas/RoutingIssue"
                },
                "type": "array"
               },
               "message": {
                "type": "string"
               }
              },
              "required": [
               "code",
               "message"
              ],
              "type": "object"
             }
            },
            "required": [
             "error"
            ],
            "type": "object"
           },
           "Payment": {
            "properties": {
             "amount": {
              "type": "integer"
             },
             "amount_captured": {
              "type": "integer"
             },
             "amount_refunded": {
              "type": "integer"
             },
             "attempts": {
              "items": {
               "properties": {
                "id": {
                 "type": "string"
                },
                "outcome": {
                 "enum": [
                  "succeeded",
                  "authorized",
                  "pending",
                  "declined",
                  "canceled",
                  "notSent",
                  "unknown",
                  "authExpired",
                  null
                 ]
                },
                "plugin": {
                 "type": "string"
                },
                "provider_account": {
                 "type": "string"
                },
                "reason": {
                 "type": "string"
                },
                "sequence": {
                 "type": "integer"
                }
               },
               "type": "object"
              },
              "type": "array"
             },
             "capture_mode": {
              "enum": [
               "automatic",
               "manual"
              ]
             },
             "country": {
              "type": "string"
             },
             "created_at": {
              "format": "date-time",
              "type": "string"
             },
             "currency": {
              "type": "string"
             },
             "failure": {
              "properties": {
               "code": {
                "type": "string"
               },
               "message": {
                "type": "string"
               }
              },
              "type": [
               "object",
               "null"
              ]
             },
             "id": {
              "type": "string"
             },
             "method": {
              "type": "string"
             },
             "next_action": {
              "properties": {
               "data": {
                "type": "object"
               },
               "expires_at": {
                "format": "date-time",
                "type": "string"
               },
               "type": {
                "type": "string"
               }
              },
              "type": [
               "object",
               "null"
              ]
             },
             "object": {
              "const": "payment"
             },
             "operations": {
              "items": {
               "type": "object"
              },
              "type": "array"
             },
             "payment_method": {
              "description": "the stored payment method used",
              "type": [
               "string",
               "null"
              ]
             },
             "reference": {
              "type": "string"
             },
             "refunds": {
              "items": {
               "$ref": "#/components/schemas/Refund"
              },
              "type": "array"
             },
             "routing": {
              "type": [
               "object",
               "null"
              ]
             },
             "saved_payment_method": {
              "description": "the stored payment method this payment set up",
              "type": [
               "string",
               "null"
              ]
             },
             "session": {
              "$ref": "#/components/schemas/ClientSession"
             },
             "status": {
              "enum": [
               "processing",
               "requires_action",
               "authorized",
               "succeeded",
               "failed",
               "canceled",
               "unknown"
              ]
             },
             "updated_at": {
              "format": "date-time",
              "type": "string"
             }
            },
            "type": "object"
           },
           "PaymentList": {
            "properties": {
             "data": {
              "items": {
               "$ref": "#/components/schemas/Payment"
              },
              "type": "array"
             },
             "has_more": {
              "type": "boolean"
             },
             "next_cursor": {
              "type": [
               "string",
               "null"
              ]
             },
             "object": {
              "const": "list"
             }
            },
            "type": "object"
           },
           "PaymentMethod": {
            "properties": {
             "created_at": {
              "type": "string"
             },
             "customer": {
              "type": "string"
             },
             "display": {
              "description": "brand, last4, masked, expiry_month, expiry_year, account; never the token",
              "type": [
               "object",
               "null"
              ]
             },
             "expires_at": {
              "type": [
               "string",
               "null"
              ]
             },
             "failure": {
              "type": [
               "object",
               "null"
              ]
             },
             "id": {
              "type": "string"
             },
             "kind": {
              "description": "wallet_agreement or card",
              "type": "string"
             },
             "method": {
              "type": "string"
             },
             "next_action": {
              "description": "the vaulting session for the app while pending",
              "type": [
               "object",
               "null"
              ]
             },
             "object": {
              "type": "string"
             },
             "origin_payment": {
              "type": [
               "string",
               "null"
              ]
             },
             "payment_method_type": {
              "type": [
               "string",
               "null"
              ]
             },
             "plugin": {
              "type": "string"
             },
             "provider_account": {
              "type": "string"
             },
             "session": {
              "$ref": "#/components/schemas/ClientSession"
             },
             "status": {
              "enum": [
               "pending",
               "active",
               "revoked",
               "failed",
               "expired"
              ],
              "type": "string"
             },
             "updated_at": {
              "type": "string"
             }
            },
            "type": "object"
           },
           "PaymentMethodList": {
            "properties": {
             "data": {
              "items": {
               "$ref": "#/components/schemas/PaymentMethod"
              },
              "type": "array"
             },
             "object": {
              "type": "string"
             }
            },
            "type": "object"
           },
           "PlatformPolicy": {
            "description": "The policy.json sections besides plugins.",
            "properties": {
             "breaker": {
              "type": "object"
             },
             "failover": {
              "type": "object"
             },
             "janitor": {
              "type": "object"
             },
             "lifetimes": {
              "type": "object"
             },
             "limits": {
              "type": "object"
             }
            },
            "type": "object"
           },
           "ProviderAccount": {
            "properties": {
             "base_url": {
              "type": "string"
             },
             "credentials": {
              "description": "secret fields masked",
              "type": "object"
             },
             "enabled": {
              "type": "boolean"
             },
             "environment": {
              "type": "string"
             },
             "id": {
              "type": "string"
             },
             "name": {
              "type": "string"
             },
             "notification_url": {
              "type": "string"
             },
             "plugin": {
              "type": "string"
             }
            },
            "type": "object"
           },
           "ProviderAccountInput": {
            "properties": {
             "base_url": {
              "type": "string"
             },
             "credentials": {
              "additionalProperties": {
               "type": "string"
              },
              "type": "object"
             },
             "enabled": {
              "type": "boolean"
             },
             "environment": {
              "type": "string"
             },
             "name": {
              "type": "string"
             },
             "options": {
              "additionalProperties": {
               "type": "string"
              },
              "type": "object"
             },
             "plugin": {
              "type": "string"
             }
            },
            "type": "object"
           },
           "ProviderHealth": {
            "properties": {
             "data": {
              "items": {
               "properties": {
                "account_id": {
                 "type": "string"
                },
                "consecutive_failures": {
                 "type": "integer"
                },
                "enabled": {
                 "type": "boolean"
                },
                "name": {
                 "type": "string"
                },
                "opened_at": {
                 "format": "date-time",
                 "type": "string"
                },
                "plugin": {
                 "type": "string"
                },
                "retry_at": {
                 "format": "date-time",
                 "type": "string"
                },
                "state": {
                 "enum": [
                  "closed",
                  "open",
                  "half_open"
                 ],
                 "type": "string"
                },
                "tenant_id": {
                 "type": "string"
                },
                "times_closed": {
                 "type": "integer"
                },
                "times_opened": {
                 "type": "integer"
                }
               },
               "type": "object"
              },
              "type": "array"
             }
            },
            "type": "object"
           },
           "Refund": {
            "properties": {
             "amount": {
              "type": "integer"
             },
             "currency": {
              "type": "string"
             },
             "id": {
              "type": "string"
             },
             "payment": {
              "type": "string"
             },
             "status": {
              "enum": [
               "pending",
               "succeeded",
               "failed",
               "unknown"
              ]
             }
            },
            "type": "object"
           },
           "ReviewList": {
            "properties": {
             "data": {
              "items": {
               "properties": {
                "amount": {
                 "type": "integer"
                },
                "currency": {
                 "type": "string"
                },
                "id": {
                 "type": "string"
                },
                "kind": {
                 "description": "Always payment_unknown: the payment's outcome stayed unknown past the janitor's horizon.",
                 "enum": [
                  "payment_unknown"
                 ]
                },
                "provider_account_id": {
                 "type": "string"
                },
                "reference": {
                 "type": "string"
                },
                "syncs": {
                 "type": "integer"
                },
                "tenant_id": {
                 "type": "string"
                },
                "unknown_since": {
                 "format": "date-time",
                 "type": "string"
                }
               },
               "type": "object"
              },
              "type": "array"
             },
             "notifications": {
              "description": "Verified provider notifications that were not applied because the payment's state rejected what they report; they were acknowledged and are never applied when sent again.",
              "items": {
               "properties": {
                "at": {
                 "description": "When the notification was received.",
                 "format": "date-time",
                 "type": "string"
                },
                "kind": {
                 "enum": [
                  "notification_rejected"
                 ]
                },
                "message": {
                 "type": "string"
                },
                "notification_id": {
                 "type": "integer"
                },
                "payment_id": {
                 "type": "string"
                },
                "provider_account_id": {
                 "type": "string"
                },
                "reason": {
                 "description": "amount_out_of_range: an amount below 0 or above the payment's; contradicts_final_state: money reported on a payment that ended without any, or a succeeded payment reported declined or cancelled.",
                 "enum": [
                  "amount_out_of_range",
                  "contradicts_final_state"
                 ]
                },
                "tenant_id": {
                 "type": "string"
                }
               },
               "type": "object"
              },
              "type": "array"
             },
             "operations": {
              "description": "Refunds and captures still pending or unknown that the janitor could not resolve.",
              "items": {
               "properties": {
                "amount": {
                 "type": "integer"
                },
                "at": {
                 "description": "When the refund or capture was created.",
                 "format": "date-time",
                 "type": "string"
                },
                "id": {
                 "type": "string"
                },
                "kind": {
                 "enum": [
                  "refund",
                  "capture"
                 ]
                },
                "payment_id": {
                 "type": "string"
                },
                "reason": {
                 "description": "refund_inquiry_unsupported: the provider cannot be asked about one refund and the payment's refunded total does not settle it; unresolved_at_horizon: still open at the janitor's horizon.",
                 "enum": [
                  "refund_inquiry_unsupported",
                  "unresolved_at_horizon"
                 ]
                },
                "status": {
                 "enum": [
                  "pending",
                  "unknown"
                 ]
                },
                "syncs": {
                 "type": "integer"
                },
                "tenant_id": {
                 "type": "string"
                }
               },
               "type": "object"
              },
              "type": "array"
             }
            },
            "type": "object"
           },
           "RotateKey": {
            "properties": {
             "expires_at": {
              "description": "When the new key expires (default never).",
              "format": "date-time",
              "type": "string"
             },
             "grace_seconds": {
              "description": "How long the old key stays valid (default 86400).",
              "maximum": 2592000,
              "minimum": 0,
              "type": "integer"
             }
            },
            "type": "object"
           },
           "Routing": {
            "properties": {
             "rules": {
              "items": {
               "properties": {
                "accounts": {
                 "items": {
                  "format": "uuid",
                  "type": "string"
                 },
                 "type": "array"
                },
                "id": {
                 "type": "string"
                },
                "match": {
                 "properties": {
                  "countries": {
                   "items": {
                    "type": "string"
                   },
                   "type": "array"
                  },
                  "currencies": {
                   "items": {
                    "type": "string"
                   },
                   "type": "array"
                  },
                  "max_amount": {
                   "type": "integer"
                  },
                  "methods": {
                   "items": {
                    "type": "string"
                   },
                   "type": "array"
                  },
                  "min_amount": {
                   "type": "integer"
                  }
                 },
                 "type": "object"
                },
                "name": {
                 "type": "string"
                },
                "weights": {
                 "description": "One weight per account: the first account is drawn by weight, deterministically per payment.",
                 "items": {
                  "minimum": 0,
                  "type": "integer"
                 },
                 "type": "array"
                }
               },
               "required": [
                "name",
                "accounts"
               ],
               "type": "object"
              },
              "type": "array"
             },
             "version": {
              "description": "Current version (read); the version the change is based on (write, optional).",
              "type": "integer"
             },
             "warnings": {
              "items": {
               "$ref": "#/components/schemas/RoutingIssue"
              },
              "type": "array"
             }
            },
            "type": "object"
           },
           "RoutingIssue": {
            "properties": {
             "code": {
              "type": "string"
             },
             "message": {
              "type": "string"
             },
             "rule_index": {
              "type": "integer"
             },
             "rule_name": {
              "type": "string"
             }
            },
            "type": "object"
           },
           "RoutingSimulation": {
            "properties": {
             "chosen": {
              "properties": {
               "account_id": {
                "type": "string"
               },
               "name": {
                "type": "string"
               },
               "plugin": {
                "type": "string"
               },
               "reason": {
                "type": "string"
               }
              },
              "type": "object"
             },
             "error": {
              "properties": {
               "code": {
                "type": "string"
               },
               "message": {
                "type": "string"
               },
               "status": {
                "type": "integer"
               }
              },
              "type": "object"
             },
             "fallbacks": {
              "items": {
               "properties": {
                "account_id": {
                 "type": "string"
                },
                "name": {
                 "type": "string"
                },
                "plugin": {
                 "type": "string"
                },
                "reason": {
                 "type": "string"
                }
               },
               "type": "object"
              },
              "type": "array"
             },
             "matched_rule": {
              "properties": {
               "id": {
                "type": "string"
               },
               "name": {
                "type": "string"
               }
              },
              "type": "object"
             },
             "routing_version": {
              "type": "integer"
             },
             "rules": {
              "items": {
               "properties": {
                "id": {
                 "type": "string"
                },
                "matched": {
                 "type": "boolean"
                },
                "name": {
                 "type": "string"
                },
                "reason": {
                 "type": "string"
                }
               },
               "type": "object"
              },
              "type": "array"
             },
             "skipped": {
              "items": {
               "properties": {
                "account_id": {
                 "type": "string"
                },
                "name": {
                 "type": "string"
                },
                "plugin": {
                 "type": "string"
                },
                "reason": {
                 "type": "string"
                }
               },
               "type": "object"
              },
              "type": "array"
             },
             "weighted": {
              "type": "boolean"
             }
            },
            "type": "object"
           },
           "RoutingSimulationRequest": {
            "properties": {
             "amount": {
              "minimum": 1,
              "type": "integer"
             },
             "country": {
              "type": "string"
             },
             "currency": {
              "type": "string"
             },
             "method": {
              "type": "string"
             },
             "reference": {
              "type": "string"
             }
            },
            "required": [
             "amount",
             "currency",
             "country",
             "method"
            ],
            "type": "object"
           },
           "RoutingVersions": {
            "properties": {
             "data": {
              "items": {
               "properties": {
                "actor": {
                 "type": "string"
                },
                "created_at": {
                 "format": "date-time",
                 "type": "string"
                },
                "rules": {
                 "items": {
                  "properties": {
                   "accounts": {
                    "items": {
                     "format": "uuid",
                     "type": "string"
                    },
                    "type": "array"
                   },
                   "id": {
                    "type": "string"
                   },
                   "match": {
                    "properties": {
                     "countries": {
                      "items": {
                       "type": "string"
                      },
                      "type": "array"
                     },
                     "currencies": {
                      "items": {
                       "type": "string"
                      },
                      "type": "array"
                     },
                     "max_amount": {
                      "type": "integer"
                     },
                     "methods": {
                      "items": {
                       "type": "string"
                      },
                      "type": "array"
                     },
                     "min_amount": {
                      "type": "integer"
                     }
                    },
                    "type": "object"
                   },
                   "name": {
                    "type": "string"
                   },
                   "weights": {
                    "description": "One weight per account: the first account is drawn by weight, deterministically per payment.",
                    "items": {
                     "minimum": 0,
                     "type": "integer"
                    },
                    "type": "array"
                   }
                  },
                  "required": [
                   "name",
                   "accounts"
                  ],
                  "type": "object"
                 },
                 "type": "array"
                },
                "version": {
                 "type": "integer"
                }
               },
               "type": "object"
              },
              "type": "array"
             }
            },
            "type": "object"
           },
           "Tenant": {
            "properties": {
             "created_at": {
              "format": "date-time",
              "type": "string"
             },
             "id": {
              "format": "uuid",
              "type": "string"
             },
             "name": {
              "type": "string"
             }
            },
            "type": "object"
           },
           "TenantPolicy": {
            "properties": {
             "attempt_limit": {
              "type": "integer"
             },
             "burst": {
              "type": "integer"
             },
             "max_concurrent_requests": {
              "type": "integer"
             },
             "requests_per_second": {
              "type": "number"
             },
             "breaker_cool_down_ms": {
              "type": "integer"
             },
             "breaker_failure_threshold": {
              "type": "integer"
             },
             "retryable_declines": {
              "type": "boolean"
             },
             "review_after_ms": {
              "type": "integer"
             },
             "time_budget_ms": {
              "type": "integer"
             }
            },
            "type": "object"
           },
           "TenantPolicyView": {
            "properties": {
             "effective": {
              "$ref": "#/components/schemas/PlatformPolicy"
             },
             "tenant": {
              "$ref": "#/components/schemas/TenantPolicy"
             }
            },
            "type": "object"
           },
           "VaultingSession": {
            "properties": {
             "country": {
              "type": "string"
             },
             "provider_account": {
              "description": "the account to vault at (default: the tenant's first account that can vault)",
              "type": "string"
             },
             "return_url": {
              "type": "string"
             }
            },
            "type": "object"
           },
           "WebhookDelivery": {
            "properties": {
             "attempt_count": {
              "type": "integer"
             },
             "attempts": {
              "items": {
               "properties": {
                "error": {
                 "enum": ["http_status", "timeout", "connection_failed", "tls_error", "address_forbidden", "invalid_response"],
                 "type": "string"
                },
                "latency_ms": {
                 "type": "integer"
                },
                "number": {
                 "type": "integer"
                },
                "started_at": {
                 "format": "date-time",
                 "type": "string"
                },
                "status_code": {
                 "type": "integer"
                }
               },
               "type": "object"
              },
              "type": "array"
             },
             "created_at": {
              "format": "date-time",
              "type": "string"
             },
             "delivered_at": {
              "format": "date-time",
              "type": "string"
             },
             "endpoint": {
              "type": "string"
             },
             "event": {
              "type": "string"
             },
             "id": {
              "type": "string"
             },
             "last_error": {
              "enum": ["http_status", "timeout", "connection_failed", "tls_error", "address_forbidden", "invalid_response"],
              "type": "string"
             },
             "last_status_code": {
              "type": "integer"
             },
             "next_attempt_at": {
              "format": "date-time",
              "type": "string"
             },
             "object": {
              "type": "string"
             },
             "replay_of": {
              "type": "string"
             },
             "status": {
              "enum": [
               "pending",
               "succeeded",
               "dead",
               "canceled"
              ],
              "type": "string"
             }
            },
            "type": "object"
           },
           "WebhookDeliveryList": {
            "properties": {
             "data": {
              "items": {
               "$ref": "#/components/schemas/WebhookDelivery"
              },
              "type": "array"
             },
             "has_more": {
              "type": "boolean"
             },
             "next_cursor": {
              "nullable": true,
              "type": "string"
             },
             "object": {
              "type": "string"
             }
            },
            "type": "object"
           },
           "WebhookEndpoint": {
            "properties": {
             "created_at": {
              "format": "date-time",
              "type": "string"
             },
             "description": {
              "type": "string"
             },
             "enabled": {
              "type": "boolean"
             },
             "event_types": {
              "items": {
               "type": "string"
              },
              "type": "array"
             },
             "id": {
              "type": "string"
             },
             "object": {
              "type": "string"
             },
             "secret": {
              "description": "whsec_…, only in the answer that creates the endpoint",
              "type": "string"
             },
             "updated_at": {
              "format": "date-time",
              "type": "string"
             },
             "url": {
              "type": "string"
             }
            },
            "type": "object"
           },
           "WebhookEndpointInput": {
            "properties": {
             "description": {
              "maxLength": 256,
              "type": "string"
             },
             "event_types": {
              "description": "event types, <object>.* or *",
              "items": {
               "type": "string"
              },
              "type": "array"
             },
             "url": {
              "description": "https (http only where the platform policy allows it), no credentials",
              "type": "string"
             }
            },
            "required": [
             "url",
             "event_types"
            ],
            "type": "object"
           },
           "WebhookEndpointList": {
            "properties": {
             "data": {
              "items": {
               "$ref": "#/components/schemas/WebhookEndpoint"
              },
              "type": "array"
             },
             "has_more": {
              "type": "boolean"
             },
             "next_cursor": {
              "nullable": true,
              "type": "string"
             },
             "object": {
              "type": "string"
             }
            },
            "type": "object"
           },
           "WebhookEvent": {
            "description": "Exactly the body its deliveries carry.",
            "properties": {
             "created_at": {
              "format": "date-time",
              "type": "string"
             },
             "data": {
              "properties": {
               "object": {
                "type": "object"
               }
              },
              "type": "object"
             },
             "id": {
              "type": "string"
             },
             "object": {
              "type": "string"
             },
             "type": {
              "type": "string"
             }
            },
            "type": "object"
           },
           "WebhookEventList": {
            "properties": {
             "data": {
              "items": {
               "$ref": "#/components/schemas/WebhookEvent"
              },
              "type": "array"
             },
             "has_more": {
              "type": "boolean"
             },
             "next_cursor": {
              "nullable": true,
              "type": "string"
             },
             "object": {
              "type": "string"
             }
            },
            "type": "object"
           }
          },
          "securitySchemes": {
           "apiKey": {
            "description": "a tenant API key (sk_...)",
            "scheme": "bearer",
            "type": "http"
           },
           "operator": {
            "description": "the operator token",
            "scheme": "bearer",
            "type": "http"
           }
          }
         },
         "info": {
          "description": "Multi-tenant payment orchestration",
          "title": "Switchyard",
          "version": "1.0.0"
         },
         "openapi": "3.1.0",
         "paths": {
          "/admin/v1/audit": {
           "get": {
            "operationId": "get_admin_v1_audit",
            "responses": {
             "200": {
              "content": {
               "application/json": {
                "schema": {
                 "type": "object"
                }
               }
              },
              "description": "success"
             },
             "default": {
              "$ref": "#/components/responses/Error"
             }
            },
            "security": [
             {
              "operator": []
             }
            ],
            "summary": "The audit log (filter: tenant)",
            "tags": [
             "admin"
            ]
           }
          },
          "/admin/v1/payments": {
           "get": {
            "operationId": "get_admin_v1_payments",
            "parameters": [
             {
              "description": "a payment id",
              "in": "query",
              "name": "id",
              "required": false,
              "schema": {
               "type": "string"
              }
             },
             {
              "description": "a merchant reference (give exactly one of id or reference)",
              "in": "query",
              "name": "reference",
              "required": false,
              "schema": {
               "type": "string"
              }
             }
            ],
            "responses": {
             "200": {
              "content": {
               "application/json": {
                "schema": {
                 "properties": {
                  "data": {
                   "items": {
                    "properties": {
                     "payment": {
                      "$ref": "#/components/schemas/Payment"
                     },
                     "tenant_id": {
                      "type": "string"
                     },
                     "tenant_name": {
                      "type": "string"
                     }
                    },
                    "type": "object"
                   },
                   "type": "array"
                  }
                 },
                 "type": "object"
                }
               }
              },
              "description": "success"
             },
             "default": {
              "$ref": "#/components/responses/Error"
             }
            },
            "security": [
             {
              "operator": []
             }
            ],
            "summary": "Find payments across tenants by id or reference, with attempts and routing decision",
            "tags": [
             "admin"
            ]
           }
          },
          "/admin/v1/payments/review": {
           "get": {
            "operationId": "get_admin_v1_payments_review",
            "parameters": [
             {
              "in": "query",
              "name": "tenant",
              "required": false,
              "schema": {
               "type": "string"
              }
             }
            ],
            "responses": {
             "200": {
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/ReviewList"
                }
               }
              },
              "description": "success"
             },
             "default": {
              "$ref": "#/components/responses/Error"
             }
            },
            "security": [
             {
              "operator": []
             }
            ],
            "summary": "Payments whose outcome stayed unknown past the horizon, rejected notifications, and unresolved refunds and captures",
            "tags": [
             "admin"
            ]
           }
          },
          "/admin/v1/plugins": {
           "get": {
            "operationId": "get_admin_v1_plugins",
            "responses": {
             "200": {
              "content": {
               "application/json": {
                "schema": {
                 "type": "object"
                }
               }
              },
              "description": "success"
             },
             "default": {
              "$ref": "#/components/responses/Error"
             }
            },
            "security": [
             {
              "operator": []
             }
            ],
            "summary": "Loaded, refused and quarantined plugins",
            "tags": [
             "admin"
            ]
           }
          },
          "/admin/v1/plugins/reload": {
           "post": {
            "operationId": "post_admin_v1_plugins_reload",
            "responses": {
             "200": {
              "content": {
               "application/json": {
                "schema": {
                 "type": "object"
                }
               }
              },
              "description": "success"
             },
             "default": {
              "$ref": "#/components/responses/Error"
             }
            },
            "security": [
             {
              "operator": []
             }
            ],
            "summary": "Rescan the plugins directory now",
            "tags": [
             "admin"
            ]
           }
          },
          "/admin/v1/policy/reload": {
           "post": {
            "operationId": "post_admin_v1_policy_reload",
            "responses": {
             "200": {
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/PlatformPolicy"
                }
               }
              },
              "description": "success"
             },
             "default": {
              "$ref": "#/components/responses/Error"
             }
            },
            "security": [
             {
              "operator": []
             }
            ],
            "summary": "Read policy.json again and apply it",
            "tags": [
             "admin"
            ]
           }
          },
          "/admin/v1/providers/health": {
           "get": {
            "operationId": "get_admin_v1_providers_health",
            "responses": {
             "200": {
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/ProviderHealth"
                }
               }
              },
              "description": "success"
             },
             "default": {
              "$ref": "#/components/responses/Error"
             }
            },
            "security": [
             {
              "operator": []
             }
            ],
            "summary": "Circuit-breaker state of every provider account",
            "tags": [
             "admin"
            ]
           }
          },
          "/admin/v1/tenants": {
           "get": {
            "operationId": "get_admin_v1_tenants",
            "responses": {
             "200": {
              "content": {
               "application/json": {
                "schema": {
                 "type": "object"
                }
               }
              },
              "description": "success"
             },
             "default": {
              "$ref": "#/components/responses/Error"
             }
            },
            "security": [
             {
              "operator": []
             }
            ],
            "summary": "List tenants",
            "tags": [
             "admin"
            ]
           },
           "post": {
            "operationId": "post_admin_v1_tenants",
            "requestBody": {
             "content": {
              "application/json": {
               "schema": {
                "properties": {
                 "name": {
                  "type": "string"
                 }
                },
                "required": [
                 "name"
                ],
                "type": "object"
               }
              }
             }
            },
            "responses": {
             "201": {
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/Tenant"
                }
               }
              },
              "description": "success"
             },
             "default": {
              "$ref": "#/components/responses/Error"
             }
            },
            "security": [
             {
              "operator": []
             }
            ],
            "summary": "Create a tenant",
            "tags": [
             "admin"
            ]
           }
          },
          "/admin/v1/tenants/{tenant}": {
           "get": {
            "operationId": "get_admin_v1_tenants_tenant",
            "parameters": [
             {
              "in": "path",
              "name": "tenant",
              "required": true,
              "schema": {
               "type": "string"
              }
             }
            ],
            "responses": {
             "200": {
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/Tenant"
                }
               }
              },
              "description": "success"
             },
             "default": {
              "$ref": "#/components/responses/Error"
             }
            },
            "security": [
             {
              "operator": []
             }
            ],
            "summary": "Get a tenant",
            "tags": [
             "admin"
            ]
           }
          },
          "/admin/v1/tenants/{tenant}/api-keys": {
           "get": {
            "operationId": "get_admin_v1_tenants_tenant_api-keys",
            "parameters": [
             {
              "in": "path",
              "name": "tenant",
              "required": true,
              "schema": {
               "type": "string"
              }
             }
            ],
            "responses": {
             "200": {
              "content": {
               "application/json": {
                "schema": {
                 "type": "object"
                }
               }
              },
              "description": "success"
             },
             "default": {
              "$ref": "#/components/responses/Error"
             }
            },
            "security": [
             {
              "operator": []
             }
            ],
            "summary": "List API keys (prefixes only)",
            "tags": [
             "admin"
            ]
           },
           "post": {
            "operationId": "post_admin_v1_tenants_tenant_api-keys",
            "parameters": [
             {
              "in": "path",
              "name": "tenant",
              "required": true,
              "schema": {
               "type": "string"
              }
             }
            ],
            "requestBody": {
             "content": {
              "application/json": {
               "schema": {
                "properties": {
                 "expires_at": {
                  "format": "date-time",
                  "type": "string"
                 },
                 "name": {
                  "type": "string"
                 },
                 "scopes": {
                  "items": {
                   "enum": [
                    "payments",
                    "admin"
                   ]
                  },
                  "type": "array"
                 }
                },
                "type": "object"
               }
              }
             }
            },
            "responses": {
             "201": {
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/APIKey"
                }
               }
              },
              "description": "success"
             },
             "default": {
              "$ref": "#/components/responses/Error"
             }
            },
            "security": [
             {
              "operator": []
             }
            ],
            "summary": "Create an API key (the secret is shown once)",
            "tags": [
             "admin"
            ]
           }
          },
          "/admin/v1/tenants/{tenant}/api-keys/{key}": {
           "delete": {
            "operationId": "delete_admin_v1_tenants_tenant_api-keys_key",
            "parameters": [
             {
              "in": "path",
              "name": "tenant",
              "required": true,
              "schema": {
               "type": "string"
              }
             },
             {
              "in": "path",
              "name": "key",
              "required": true,
              "schema": {
               "type": "string"
              }
             }
            ],
            "responses": {
             "204": {
              "description": "done"
             },
             "default": {
              "$ref": "#/components/responses/Error"
             }
            },
            "security": [
             {
              "operator": []
             }
            ],
            "summary": "Revoke an API key",
            "tags": [
             "admin"
            ]
           }
          },
          "/admin/v1/tenants/{tenant}/api-keys/{key}/rotate": {
           "post": {
            "operationId": "post_admin_v1_tenants_tenant_api_keys_key_rotate",
            "parameters": [
             {
              "in": "path",
              "name": "tenant",
              "required": true,
              "schema": {
               "type": "string"
              }
             },
             {
              "in": "path",
              "name": "key",
              "required": true,
              "schema": {
               "type": "string"
              }
             }
            ],
            "requestBody": {
             "content": {
              "application/json": {
               "schema": {
                "$ref": "#/components/schemas/RotateKey"
               }
              }
             }
            },
            "responses": {
             "201": {
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/APIKey"
                }
               }
              },
              "description": "success"
             },
             "default": {
              "$ref": "#/components/responses/Error"
             }
            },
            "security": [
             {
              "operator": []
             }
            ],
            "summary": "Rotate an API key: a new key now, the old one valid for a grace period",
            "tags": [
             "admin"
            ]
           }
          },
          "/admin/v1/tenants/{tenant}/events/{event}/replay": {
           "post": {
            "operationId": "post_admin_v1_tenants_tenant_events_event_replay",
            "parameters": [
             {
              "in": "path",
              "name": "tenant",
              "required": true,
              "schema": {
               "type": "string"
              }
             },
             {
              "in": "path",
              "name": "event",
              "required": true,
              "schema": {
               "type": "string"
              }
             }
            ],
            "requestBody": {
             "content": {
              "application/json": {
               "schema": {
                "properties": {
                 "endpoint": {
                  "type": "string"
                 }
                },
                "type": "object"
               }
              }
             }
            },
            "responses": {
             "202": {
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/WebhookDeliveryList"
                }
               }
              },
              "description": "success"
             },
             "default": {
              "$ref": "#/components/responses/Error"
             }
            },
            "security": [
             {
              "operator": []
             }
            ],
            "summary": "Send a tenant's event again (to one endpoint, or to every subscribed endpoint)",
            "tags": [
             "admin"
            ]
           }
          },
          "/admin/v1/tenants/{tenant}/policy": {
           "get": {
            "operationId": "get_admin_v1_tenants_tenant_policy",
            "parameters": [
             {
              "in": "path",
              "name": "tenant",
              "required": true,
              "schema": {
               "type": "string"
              }
             }
            ],
            "responses": {
             "200": {
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/TenantPolicyView"
                }
               }
              },
              "description": "success"
             },
             "default": {
              "$ref": "#/components/responses/Error"
             }
            },
            "security": [
             {
              "operator": []
             }
            ],
            "summary": "A tenant's own limits and the policy in effect for it",
            "tags": [
             "admin"
            ]
           },
           "put": {
            "operationId": "put_admin_v1_tenants_tenant_policy",
            "parameters": [
             {
              "in": "path",
              "name": "tenant",
              "required": true,
              "schema": {
               "type": "string"
              }
             }
            ],
            "requestBody": {
             "content": {
              "application/json": {
               "schema": {
                "$ref": "#/components/schemas/TenantPolicy"
               }
              }
             }
            },
            "responses": {
             "200": {
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/TenantPolicyView"
                }
               }
              },
              "description": "success"
             },
             "default": {
              "$ref": "#/components/responses/Error"
             }
            },
            "security": [
             {
              "operator": []
             }
            ],
            "summary": "Set a tenant's own limits (may only tighten the platform's)",
            "tags": [
             "admin"
            ]
           }
          },
          "/admin/v1/tenants/{tenant}/provider-accounts": {
           "get": {
            "operationId": "get_admin_v1_tenants_tenant_provider-accounts",
            "parameters": [
             {
              "in": "path",
              "name": "tenant",
              "required": true,
              "schema": {
               "type": "string"
              }
             }
            ],
            "responses": {
             "200": {
              "content": {
               "application/json": {
                "schema": {
                 "type": "object"
                }
               }
              },
              "description": "success"
             },
             "default": {
              "$ref": "#/components/responses/Error"
             }
            },
            "security": [
             {
              "operator": []
             }
            ],
            "summary": "List provider accounts (secrets masked)",
            "tags": [
             "admin"
            ]
           },
           "post": {
            "operationId": "post_admin_v1_tenants_tenant_provider-accounts",
            "parameters": [
             {
              "in": "path",
              "name": "tenant",
              "required": true,
              "schema": {
               "type": "string"
              }
             }
            ],
            "requestBody": {
             "content": {
              "application/json": {
               "schema": {
                "$ref": "#/components/schemas/ProviderAccountInput"
               }
              }
             }
            },
            "responses": {
             "201": {
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/ProviderAccount"
                }
               }
              },
              "description": "success"
             },
             "default": {
              "$ref": "#/components/responses/Error"
             }
            },
            "security": [
             {
              "operator": []
             }
            ],
            "summary": "Create a provider account (secret credentials are write-only)",
            "tags": [
             "admin"
            ]
           }
          },
          "/admin/v1/tenants/{tenant}/provider-accounts/{account}": {
           "get": {
            "operationId": "get_admin_v1_tenants_tenant_provider-accounts_account",
            "parameters": [
             {
              "in": "path",
              "name": "tenant",
              "required": true,
              "schema": {
               "type": "string"
              }
             },
             {
              "in": "path",
              "name": "account",
              "required": true,
              "schema": {
               "type": "string"
              }
             }
            ],
            "responses": {
             "200": {
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/ProviderAccount"
                }
               }
              },
              "description": "success"
             },
             "default": {
              "$ref": "#/components/responses/Error"
             }
            },
            "security": [
             {
              "operator": []
             }
            ],
            "summary": "Get a provider account",
            "tags": [
             "admin"
            ]
           },
           "patch": {
            "operationId": "patch_admin_v1_tenants_tenant_provider-accounts_account",
            "parameters": [
             {
              "in": "path",
              "name": "tenant",
              "required": true,
              "schema": {
               "type": "string"
              }
             },
             {
              "in": "path",
              "name": "account",
              "required": true,
              "schema": {
               "type": "string"
              }
             }
            ],
            "requestBody": {
             "content": {
              "application/json": {
               "schema": {
                "$ref": "#/components/schemas/ProviderAccountInput"
               }
              }
             }
            },
            "responses": {
             "200": {
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/ProviderAccount"
                }
               }
              },
              "description": "success"
             },
             "default": {
              "$ref": "#/components/responses/Error"
             }
            },
            "security": [
             {
              "operator": []
             }
            ],
            "summary": "Update, enable or disable a provider account",
            "tags": [
             "admin"
            ]
           }
          },
          "/admin/v1/tenants/{tenant}/routing": {
           "get": {
            "operationId": "get_admin_v1_tenants_tenant_routing",
            "parameters": [
             {
              "in": "path",
              "name": "tenant",
              "required": true,
              "schema": {
               "type": "string"
              }
             }
            ],
            "responses": {
             "200": {
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/Routing"
                }
               }
              },
              "description": "success"
             },
             "default": {
              "$ref": "#/components/responses/Error"
             }
            },
            "security": [
             {
              "operator": []
             }
            ],
            "summary": "Get the routing rules",
            "tags": [
             "admin"
            ]
           },
           "put": {
            "operationId": "put_admin_v1_tenants_tenant_routing",
            "parameters": [
             {
              "in": "path",
              "name": "tenant",
              "required": true,
              "schema": {
               "type": "string"
              }
             }
            ],
            "requestBody": {
             "content": {
              "application/json": {
               "schema": {
                "$ref": "#/components/schemas/Routing"
               }
              }
             }
            },
            "responses": {
             "200": {
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/Routing"
                }
               }
              },
              "description": "success"
             },
             "default": {
              "$ref": "#/components/responses/Error"
             }
            },
            "security": [
             {
              "operator": []
             }
            ],
            "summary": "Replace the routing rules",
            "tags": [
             "admin"
            ]
           }
          },
          "/admin/v1/tenants/{tenant}/routing/simulate": {
           "post": {
            "operationId": "post_admin_v1_tenants_tenant_routing_simulate",
            "parameters": [
             {
              "in": "path",
              "name": "tenant",
              "required": true,
              "schema": {
               "type": "string"
              }
             }
            ],
            "requestBody": {
             "content": {
              "application/json": {
               "schema": {
                "$ref": "#/components/schemas/RoutingSimulationRequest"
               }
              }
             }
            },
            "responses": {
             "200": {
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/RoutingSimulation"
                }
               }
              },
              "description": "success"
             },
             "default": {
              "$ref": "#/components/responses/Error"
             }
            },
            "security": [
             {
              "operator": []
             }
            ],
            "summary": "Explain how a payment would be routed, without calling any provider",
            "tags": [
             "admin"
            ]
           }
          },
          "/admin/v1/tenants/{tenant}/routing/versions": {
           "get": {
            "operationId": "get_admin_v1_tenants_tenant_routing_versions",
            "parameters": [
             {
              "in": "path",
              "name": "tenant",
              "required": true,
              "schema": {
               "type": "string"
              }
             }
            ],
            "responses": {
             "200": {
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/RoutingVersions"
                }
               }
              },
              "description": "success"
             },
             "default": {
              "$ref": "#/components/responses/Error"
             }
            },
            "security": [
             {
              "operator": []
             }
            ],
            "summary": "Earlier versions of the routing",
            "tags": [
             "admin"
            ]
           }
          },
          "/admin/v1/webhook-deliveries": {
           "get": {
            "operationId": "get_admin_v1_webhook_deliveries",
            "parameters": [
             {
              "description": "pending, succeeded, dead (default) or canceled",
              "in": "query",
              "name": "status",
              "required": false,
              "schema": {
               "type": "string"
              }
             },
             {
              "in": "query",
              "name": "tenant",
              "required": false,
              "schema": {
               "type": "string"
              }
             },
             {
              "description": "1 to 100 (default 20)",
              "in": "query",
              "name": "limit",
              "required": false,
              "schema": {
               "type": "string"
              }
             }
            ],
            "responses": {
             "200": {
              "content": {
               "application/json": {
                "schema": {
                 "properties": {
                  "data": {
                   "items": {
                    "properties": {
                     "delivery": {
                      "$ref": "#/components/schemas/WebhookDelivery"
                     },
                     "tenant_id": {
                      "type": "string"
                     },
                     "tenant_name": {
                      "type": "string"
                     }
                    },
                    "type": "object"
                   },
                   "type": "array"
                  }
                 },
                 "type": "object"
                }
               }
              },
              "description": "success"
             },
             "default": {
              "$ref": "#/components/responses/Error"
             }
            },
            "security": [
             {
              "operator": []
             }
            ],
            "summary": "Outbound webhook deliveries in a status across tenants, newest first (dead letters by default)",
            "tags": [
             "admin"
            ]
           }
          },
          "/console": {
           "get": {
            "operationId": "get_console",
            "responses": {
             "200": {
              "content": {
               "text/html": {
                "schema": {
                 "type": "string"
                }
               }
              },
              "description": "success"
             },
             "default": {
              "$ref": "#/components/responses/Error"
             }
            },
            "summary": "The operator console (a static page; it calls the admin API with the operator token)",
            "tags": [
             "console"
            ]
           }
          },
          "/console/app.css": {
           "get": {
            "operationId": "get_console_app_css",
            "responses": {
             "200": {
              "content": {
               "text/css": {
                "schema": {
                 "type": "string"
                }
               }
              },
              "description": "success"
             },
             "default": {
              "$ref": "#/components/responses/Error"
             }
            },
            "summary": "The operator console's stylesheet",
            "tags": [
             "console"
            ]
           }
          },
          "/console/app.js": {
           "get": {
            "operationId": "get_console_app_js",
            "responses": {
             "200": {
              "content": {
               "text/javascript": {
                "schema": {
                 "type": "string"
                }
               }
              },
              "description": "success"
             },
             "default": {
              "$ref": "#/components/responses/Error"
             }
            },
            "summary": "The operator console's script",
            "tags": [
             "console"
            ]
           }
          },
          "/health": {
           "get": {
            "operationId": "get_health",
            "responses": {
             "200": {
              "content": {
               "application/json": {
                "schema": {
                 "type": "object"
                }
               }
              },
              "description": "success"
             },
             "default": {
              "$ref": "#/components/responses/Error"
             }
            },
            "summary": "Liveness",
            "tags": [
             "health"
            ]
           }
          },
          "/metrics": {
           "get": {
            "operationId": "get_metrics",
            "responses": {
             "200": {
              "content": {
               "text/plain": {
                "schema": {
                 "type": "string"
                }
               }
              },
              "description": "the process's metrics in the Prometheus text format (see the README)"
             },
             "default": {
              "$ref": "#/components/responses/Error"
             }
            },
            "security": [
             {
              "operator": []
             }
            ],
            "summary": "Metrics for the operator's scraper",
            "tags": [
             "admin"
            ]
           }
          },
          "/notifications/{account}": {
           "post": {
            "operationId": "post_notifications_account",
            "parameters": [
             {
              "in": "path",
              "name": "account",
              "required": true,
              "schema": {
               "type": "string"
              }
             }
            ],
            "requestBody": {
             "content": {
              "application/json": {
               "schema": {
                "type": "string"
               }
              }
             }
            },
            "responses": {
             "200": {
              "content": {
               "application/json": {
                "schema": {
                 "type": "string"
                }
               }
              },
              "description": "success"
             },
             "default": {
              "$ref": "#/components/responses/Error"
             }
            },
            "summary": "Provider notification intake (verified by the account's plugin)",
            "tags": [
             "notifications"
            ]
           }
          },
          "/openapi.json": {
           "get": {
            "operationId": "get_openapi.json",
            "responses": {
             "200": {
              "content": {
               "application/json": {
                "schema": {
                 "type": "object"
                }
               }
              },
              "description": "success"
             },
             "default": {
              "$ref": "#/components/responses/Error"
             }
            },
            "summary": "This document",
            "tags": [
             "health"
            ]
           }
          },
          "/ready": {
           "get": {
            "operationId": "get_ready",
            "responses": {
             "200": {
              "content": {
               "application/json": {
                "schema": {
                 "type": "object"
                }
               }
              },
              "description": "success"
             },
             "default": {
              "$ref": "#/components/responses/Error"
             }
            },
            "summary": "Readiness: database and plugins",
            "tags": [
             "health"
            ]
           }
          },
          "/v1/customers/{customer}/payment-methods": {
           "get": {
            "operationId": "get_v1_customers_customer_payment_methods",
            "parameters": [
             {
              "in": "path",
              "name": "customer",
              "required": true,
              "schema": {
               "type": "string"
              }
             }
            ],
            "responses": {
             "200": {
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/PaymentMethodList"
                }
               }
              },
              "description": "success"
             },
             "default": {
              "$ref": "#/components/responses/Error"
             }
            },
            "security": [
             {
              "apiKey": []
             }
            ],
            "summary": "List the customer's stored payment methods (masked)",
            "tags": [
             "payment methods"
            ]
           }
          },
          "/v1/customers/{customer}/payment-methods/{pm}": {
           "delete": {
            "operationId": "delete_v1_customers_customer_payment_methods_pm",
            "parameters": [
             {
              "in": "path",
              "name": "customer",
              "required": true,
              "schema": {
               "type": "string"
              }
             },
             {
              "in": "path",
              "name": "pm",
              "required": true,
              "schema": {
               "type": "string"
              }
             }
            ],
            "responses": {
             "200": {
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/PaymentMethod"
                }
               }
              },
              "description": "success"
             },
             "default": {
              "$ref": "#/components/responses/Error"
             }
            },
            "security": [
             {
              "apiKey": []
             }
            ],
            "summary": "Revoke a stored payment method",
            "tags": [
             "payment methods"
            ]
           },
           "get": {
            "operationId": "get_v1_customers_customer_payment_methods_pm",
            "parameters": [
             {
              "in": "path",
              "name": "customer",
              "required": true,
              "schema": {
               "type": "string"
              }
             },
             {
              "in": "path",
              "name": "pm",
              "required": true,
              "schema": {
               "type": "string"
              }
             }
            ],
            "responses": {
             "200": {
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/PaymentMethod"
                }
               }
              },
              "description": "success"
             },
             "default": {
              "$ref": "#/components/responses/Error"
             }
            },
            "security": [
             {
              "apiKey": []
             }
            ],
            "summary": "Get a stored payment method",
            "tags": [
             "payment methods"
            ]
           }
          },
          "/v1/customers/{customer}/payment-methods/{pm}/sync": {
           "post": {
            "operationId": "post_v1_customers_customer_payment_methods_pm_sync",
            "parameters": [
             {
              "in": "path",
              "name": "customer",
              "required": true,
              "schema": {
               "type": "string"
              }
             },
             {
              "in": "path",
              "name": "pm",
              "required": true,
              "schema": {
               "type": "string"
              }
             }
            ],
            "responses": {
             "200": {
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/PaymentMethod"
                }
               }
              },
              "description": "success"
             },
             "default": {
              "$ref": "#/components/responses/Error"
             }
            },
            "security": [
             {
              "apiKey": []
             }
            ],
            "summary": "Ask the provider what became of a pending vaulting",
            "tags": [
             "payment methods"
            ]
           }
          },
          "/v1/customers/{customer}/vaulting-sessions": {
           "post": {
            "operationId": "post_v1_customers_customer_vaulting_sessions",
            "parameters": [
             {
              "in": "path",
              "name": "customer",
              "required": true,
              "schema": {
               "type": "string"
              }
             },
             {
              "in": "header",
              "name": "Idempotency-Key",
              "required": false,
              "schema": {
               "maxLength": 255,
               "type": "string"
              }
             }
            ],
            "requestBody": {
             "content": {
              "application/json": {
               "schema": {
                "$ref": "#/components/schemas/VaultingSession"
               }
              }
             }
            },
            "responses": {
             "201": {
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/PaymentMethod"
                }
               }
              },
              "description": "success"
             },
             "default": {
              "$ref": "#/components/responses/Error"
             }
            },
            "security": [
             {
              "apiKey": []
             }
            ],
            "summary": "Start a card-vaulting session for the customer's app (honours Idempotency-Key)",
            "tags": [
             "payment methods"
            ]
           }
          },
          "/v1/events": {
           "get": {
            "operationId": "get_v1_events",
            "parameters": [
             {
              "in": "query",
              "name": "type",
              "required": false,
              "schema": {
               "type": "string"
              }
             },
             {
              "in": "query",
              "name": "object",
              "required": false,
              "schema": {
               "type": "string"
              }
             },
             {
              "in": "query",
              "name": "starting_after",
              "required": false,
              "schema": {
               "type": "string"
              }
             },
             {
              "in": "query",
              "name": "limit",
              "required": false,
              "schema": {
               "type": "integer"
              }
             }
            ],
            "responses": {
             "200": {
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/WebhookEventList"
                }
               }
              },
              "description": "success"
             },
             "default": {
              "$ref": "#/components/responses/Error"
             }
            },
            "security": [
             {
              "apiKey": []
             }
            ],
            "summary": "Events of payments, refunds and payment methods, newest first",
            "tags": [
             "webhooks"
            ]
           }
          },
          "/v1/events/{event}": {
           "get": {
            "operationId": "get_v1_events_event",
            "parameters": [
             {
              "in": "path",
              "name": "event",
              "required": true,
              "schema": {
               "type": "string"
              }
             }
            ],
            "responses": {
             "200": {
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/WebhookEvent"
                }
               }
              },
              "description": "success"
             },
             "default": {
              "$ref": "#/components/responses/Error"
             }
            },
            "security": [
             {
              "apiKey": []
             }
            ],
            "summary": "One event",
            "tags": [
             "webhooks"
            ]
           }
          },
          "/v1/events/{event}/deliveries": {
           "get": {
            "operationId": "get_v1_events_event_deliveries",
            "parameters": [
             {
              "in": "path",
              "name": "event",
              "required": true,
              "schema": {
               "type": "string"
              }
             }
            ],
            "responses": {
             "200": {
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/WebhookDeliveryList"
                }
               }
              },
              "description": "success"
             },
             "default": {
              "$ref": "#/components/responses/Error"
             }
            },
            "security": [
             {
              "apiKey": []
             }
            ],
            "summary": "An event's deliveries with every attempt's status code and latency",
            "tags": [
             "webhooks"
            ]
           }
          },
          "/v1/events/{event}/replay": {
           "post": {
            "operationId": "post_v1_events_event_replay",
            "parameters": [
             {
              "in": "path",
              "name": "event",
              "required": true,
              "schema": {
               "type": "string"
              }
             }
            ],
            "requestBody": {
             "content": {
              "application/json": {
               "schema": {
                "properties": {
                 "endpoint": {
                  "type": "string"
                 }
                },
                "type": "object"
               }
              }
             }
            },
            "responses": {
             "202": {
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/WebhookDeliveryList"
                }
               }
              },
              "description": "success"
             },
             "default": {
              "$ref": "#/components/responses/Error"
             }
            },
            "security": [
             {
              "apiKey": []
             }
            ],
            "summary": "Send an event again (to one endpoint, or to every subscribed endpoint)",
            "tags": [
             "webhooks"
            ]
           }
          },
          "/v1/payments": {
           "get": {
            "operationId": "get_v1_payments",
            "responses": {
             "200": {
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/PaymentList"
                }
               }
              },
              "description": "success"
             },
             "default": {
              "$ref": "#/components/responses/Error"
             }
            },
            "security": [
             {
              "apiKey": []
             }
            ],
            "summary": "List payments (cursor: starting_after; filter: reference; limit 1-100)",
            "tags": [
             "payments"
            ]
           },
           "post": {
            "operationId": "post_v1_payments",
            "parameters": [
             {
              "in": "header",
              "name": "Idempotency-Key",
              "required": false,
              "schema": {
               "maxLength": 255,
               "type": "string"
              }
             }
            ],
            "requestBody": {
             "content": {
              "application/json": {
               "schema": {
                "$ref": "#/components/schemas/CreatePayment"
               }
              }
             }
            },
            "responses": {
             "201": {
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/Payment"
                }
               }
              },
              "description": "success"
             },
             "default": {
              "$ref": "#/components/responses/Error"
             }
            },
            "security": [
             {
              "apiKey": []
             }
            ],
            "summary": "Create a payment (honours Idempotency-Key)",
            "tags": [
             "payments"
            ]
           }
          },
          "/v1/payments/{id}": {
           "get": {
            "operationId": "get_v1_payments_id",
            "parameters": [
             {
              "in": "path",
              "name": "id",
              "required": true,
              "schema": {
               "type": "string"
              }
             }
            ],
            "responses": {
             "200": {
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/Payment"
                }
               }
              },
              "description": "success"
             },
             "default": {
              "$ref": "#/components/responses/Error"
             }
            },
            "security": [
             {
              "apiKey": []
             }
            ],
            "summary": "Get a payment",
            "tags": [
             "payments"
            ]
           }
          },
          "/v1/payments/{id}/cancel": {
           "post": {
            "operationId": "post_v1_payments_id_cancel",
            "parameters": [
             {
              "in": "path",
              "name": "id",
              "required": true,
              "schema": {
               "type": "string"
              }
             },
             {
              "in": "header",
              "name": "Idempotency-Key",
              "required": false,
              "schema": {
               "maxLength": 255,
               "type": "string"
              }
             }
            ],
            "responses": {
             "200": {
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/Payment"
                }
               }
              },
              "description": "success"
             },
             "default": {
              "$ref": "#/components/responses/Error"
             }
            },
            "security": [
             {
              "apiKey": []
             }
            ],
            "summary": "Cancel before capture",
            "tags": [
             "payments"
            ]
           }
          },
          "/v1/payments/{id}/capture": {
           "post": {
            "operationId": "post_v1_payments_id_capture",
            "parameters": [
             {
              "in": "path",
              "name": "id",
              "required": true,
              "schema": {
               "type": "string"
              }
             },
             {
              "in": "header",
              "name": "Idempotency-Key",
              "required": false,
              "schema": {
               "maxLength": 255,
               "type": "string"
              }
             }
            ],
            "requestBody": {
             "content": {
              "application/json": {
               "schema": {
                "$ref": "#/components/schemas/Amount"
               }
              }
             }
            },
            "responses": {
             "200": {
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/Payment"
                }
               }
              },
              "description": "success"
             },
             "default": {
              "$ref": "#/components/responses/Error"
             }
            },
            "security": [
             {
              "apiKey": []
             }
            ],
            "summary": "Capture (amount optional: the remainder)",
            "tags": [
             "payments"
            ]
           }
          },
          "/v1/payments/{id}/complete": {
           "post": {
            "operationId": "post_v1_payments_id_complete",
            "parameters": [
             {
              "in": "path",
              "name": "id",
              "required": true,
              "schema": {
               "type": "string"
              }
             },
             {
              "in": "header",
              "name": "Idempotency-Key",
              "required": false,
              "schema": {
               "maxLength": 255,
               "type": "string"
              }
             }
            ],
            "requestBody": {
             "content": {
              "application/json": {
               "schema": {
                "properties": {
                 "payment_data": {
                  "type": "object"
                 }
                },
                "required": [
                 "payment_data"
                ],
                "type": "object"
               }
              }
             }
            },
            "responses": {
             "200": {
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/Payment"
                }
               }
              },
              "description": "success"
             },
             "default": {
              "$ref": "#/components/responses/Error"
             }
            },
            "security": [
             {
              "apiKey": []
             }
            ],
            "summary": "Finish a payment with the customer app's output (e.g. encrypted_customer_input); an expired client session is a 410 session_expired",
            "tags": [
             "payments"
            ]
           }
          },
          "/v1/payments/{id}/refunds": {
           "post": {
            "operationId": "post_v1_payments_id_refunds",
            "parameters": [
             {
              "in": "path",
              "name": "id",
              "required": true,
              "schema": {
               "type": "string"
              }
             },
             {
              "in": "header",
              "name": "Idempotency-Key",
              "required": false,
              "schema": {
               "maxLength": 255,
               "type": "string"
              }
             }
            ],
            "requestBody": {
             "content": {
              "application/json": {
               "schema": {
                "$ref": "#/components/schemas/Amount"
               }
              }
             }
            },
            "responses": {
             "201": {
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/Refund"
                }
               }
              },
              "description": "success"
             },
             "default": {
              "$ref": "#/components/responses/Error"
             }
            },
            "security": [
             {
              "apiKey": []
             }
            ],
            "summary": "Refund (partial allowed, never above captured)",
            "tags": [
             "payments"
            ]
           }
          },
          "/v1/payments/{id}/session": {
           "get": {
            "operationId": "get_v1_payments_id_session",
            "parameters": [
             {
              "in": "path",
              "name": "id",
              "required": true,
              "schema": {
               "type": "string"
              }
             }
            ],
            "responses": {
             "200": {
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/ClientSession"
                }
               }
              },
              "description": "success"
             },
             "default": {
              "$ref": "#/components/responses/Error"
             }
            },
            "security": [
             {
              "apiKey": []
             }
            ],
            "summary": "The payment's live client session (410 session_expired once expired)",
            "tags": [
             "payments"
            ]
           },
           "post": {
            "operationId": "post_v1_payments_id_session",
            "parameters": [
             {
              "in": "path",
              "name": "id",
              "required": true,
              "schema": {
               "type": "string"
              }
             },
             {
              "in": "header",
              "name": "Idempotency-Key",
              "required": false,
              "schema": {
               "maxLength": 255,
               "type": "string"
              }
             }
            ],
            "responses": {
             "200": {
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/Payment"
                }
               }
              },
              "description": "success"
             },
             "default": {
              "$ref": "#/components/responses/Error"
             }
            },
            "security": [
             {
              "apiKey": []
             }
            ],
            "summary": "Renew an expired client session where the provider allows it (409 session_not_renewable otherwise)",
            "tags": [
             "payments"
            ]
           }
          },
          "/v1/payments/{id}/sync": {
           "post": {
            "operationId": "post_v1_payments_id_sync",
            "parameters": [
             {
              "in": "path",
              "name": "id",
              "required": true,
              "schema": {
               "type": "string"
              }
             },
             {
              "in": "header",
              "name": "Idempotency-Key",
              "required": false,
              "schema": {
               "maxLength": 255,
               "type": "string"
              }
             }
            ],
            "responses": {
             "200": {
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/Payment"
                }
               }
              },
              "description": "success"
             },
             "default": {
              "$ref": "#/components/responses/Error"
             }
            },
            "security": [
             {
              "apiKey": []
             }
            ],
            "summary": "Ask the provider for the payment's state",
            "tags": [
             "payments"
            ]
           }
          },
          "/v1/routing": {
           "get": {
            "operationId": "get_v1_routing",
            "responses": {
             "200": {
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/Routing"
                }
               }
              },
              "description": "success"
             },
             "default": {
              "$ref": "#/components/responses/Error"
             }
            },
            "security": [
             {
              "apiKey": []
             }
            ],
            "summary": "Get the routing rules",
            "tags": [
             "routing"
            ]
           },
           "put": {
            "operationId": "put_v1_routing",
            "requestBody": {
             "content": {
              "application/json": {
               "schema": {
                "$ref": "#/components/schemas/Routing"
               }
              }
             }
            },
            "responses": {
             "200": {
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/Routing"
                }
               }
              },
              "description": "success"
             },
             "default": {
              "$ref": "#/components/responses/Error"
             }
            },
            "security": [
             {
              "apiKey": []
             }
            ],
            "summary": "Replace the routing rules (validated, versioned, audited)",
            "tags": [
             "routing"
            ]
           }
          },
          "/v1/routing/simulate": {
           "post": {
            "operationId": "post_v1_routing_simulate",
            "requestBody": {
             "content": {
              "application/json": {
               "schema": {
                "$ref": "#/components/schemas/RoutingSimulationRequest"
               }
              }
             }
            },
            "responses": {
             "200": {
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/RoutingSimulation"
                }
               }
              },
              "description": "success"
             },
             "default": {
              "$ref": "#/components/responses/Error"
             }
            },
            "security": [
             {
              "apiKey": []
             }
            ],
            "summary": "Explain how a payment would be routed, without calling any provider",
            "tags": [
             "routing"
            ]
           }
          },
          "/v1/routing/versions": {
           "get": {
            "operationId": "get_v1_routing_versions",
            "responses": {
             "200": {
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/RoutingVersions"
                }
               }
              },
              "description": "success"
             },
             "default": {
              "$ref": "#/components/responses/Error"
             }
            },
            "security": [
             {
              "apiKey": []
             }
            ],
            "summary": "Earlier versions of the routing",
            "tags": [
             "routing"
            ]
           }
          },
          "/v1/webhook-deliveries": {
           "get": {
            "operationId": "get_v1_webhook_deliveries",
            "parameters": [
             {
              "in": "query",
              "name": "status",
              "required": false,
              "schema": {
               "type": "string"
              }
             },
             {
              "in": "query",
              "name": "limit",
              "required": false,
              "schema": {
               "type": "integer"
              }
             }
            ],
            "responses": {
             "200": {
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/WebhookDeliveryList"
                }
               }
              },
              "description": "success"
             },
             "default": {
              "$ref": "#/components/responses/Error"
             }
            },
            "security": [
             {
              "apiKey": []
             }
            ],
            "summary": "Deliveries in a status, e.g. the dead letters",
            "tags": [
             "webhooks"
            ]
           }
          },
          "/v1/webhook-endpoints": {
           "get": {
            "operationId": "get_v1_webhook_endpoints",
            "responses": {
             "200": {
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/WebhookEndpointList"
                }
               }
              },
              "description": "success"
             },
             "default": {
              "$ref": "#/components/responses/Error"
             }
            },
            "security": [
             {
              "apiKey": []
             }
            ],
            "summary": "List webhook endpoints",
            "tags": [
             "webhooks"
            ]
           },
           "post": {
            "operationId": "post_v1_webhook_endpoints",
            "requestBody": {
             "content": {
              "application/json": {
               "schema": {
                "$ref": "#/components/schemas/WebhookEndpointInput"
               }
              }
             }
            },
            "responses": {
             "201": {
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/WebhookEndpoint"
                }
               }
              },
              "description": "success"
             },
             "default": {
              "$ref": "#/components/responses/Error"
             }
            },
            "security": [
             {
              "apiKey": []
             }
            ],
            "summary": "Register a webhook endpoint; its signing secret is shown only here",
            "tags": [
             "webhooks"
            ]
           }
          },
          "/v1/webhook-endpoints/{endpoint}": {
           "delete": {
            "operationId": "delete_v1_webhook_endpoints_endpoint",
            "parameters": [
             {
              "in": "path",
              "name": "endpoint",
              "required": true,
              "schema": {
               "type": "string"
              }
             }
            ],
            "responses": {
             "200": {
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/WebhookEndpoint"
                }
               }
              },
              "description": "success"
             },
             "default": {
              "$ref": "#/components/responses/Error"
             }
            },
            "security": [
             {
              "apiKey": []
             }
            ],
            "summary": "Disable a webhook endpoint and cancel its pending deliveries",
            "tags": [
             "webhooks"
            ]
           },
           "get": {
            "operationId": "get_v1_webhook_endpoints_endpoint",
            "parameters": [
             {
              "in": "path",
              "name": "endpoint",
              "required": true,
              "schema": {
               "type": "string"
              }
             }
            ],
            "responses": {
             "200": {
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/WebhookEndpoint"
                }
               }
              },
              "description": "success"
             },
             "default": {
              "$ref": "#/components/responses/Error"
             }
            },
            "security": [
             {
              "apiKey": []
             }
            ],
            "summary": "One webhook endpoint",
            "tags": [
             "webhooks"
            ]
           }
          }
         },
         "tags": [
          {
           "description": "Outbound webhooks: endpoints, events, deliveries, replays (admin-scoped key).",
           "name": "webhooks"
          }
         ]
        }
        """#
}
