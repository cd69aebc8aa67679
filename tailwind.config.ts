import type { Config } from 'tailwindcss'

export default {
  content: ['./app/**/*.{ts,tsx}'],
  darkMode: 'class',
  // alignment comes from schema data at run time
  safelist: ['text-left', 'text-center', 'text-right'],
  theme: {
    extend: {
      colors: {
        canopy: { 50: '#f0fdf4', 100: '#dcfce7', 400: '#4ade80', 500: '#22c55e', 600: '#15803d', 700: '#166534', 900: '#14532d' },
      },
    },
  },
  plugins: [],
} satisfies Config
