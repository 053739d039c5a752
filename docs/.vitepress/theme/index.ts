import DefaultTheme from 'vitepress/theme';
import './colors.css';

/** VitePress's default theme, with brand colours that keep white text readable on them (WCAG AA, 4.5:1). */
export default DefaultTheme;
