# frozen_string_literal: true

module Shop
  # Pricing is mixed into anything that holds priced items.
  module Pricing
    # The sum of the prices of all items.
    def total_price
      items.sum { |item| price_of(item) }
    end

    # The price of one item; including classes decide.
    def price_of(_item)
      raise NotImplementedError
    end
  end
end
