# frozen_string_literal: true

# A percentage taken off an amount.
class Shop::Discount
  attr_reader :percent

  def initialize(percent)
    @percent = percent
  end

  # Apply the discount to an amount.
  def apply(amount)
    amount - (amount * percent / 100)
  end
end
